module github.com/target-oracle/target-oracle

go 1.26.8

require (
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	github.com/sijms/go-ora/v2 v2.9.0 // indirect
	golang.org/x/text v0.14.0 // indirect
)
