package pipeline

// Every test of this package (the pipeline_test ones too: one binary)
// checks the frontier, the pending states' gaps and the largest buffer,
// kept as they change, against a scan of every stream (frontier.go,
// largest.go).
func init() { verifyFrontier = true }

// VerifyFrontier sets whether the scans check (a benchmark of many
// streams turns them off: they are what made such runs quadratic) and
// returns the setting before.
func VerifyFrontier(on bool) bool {
	was := verifyFrontier
	verifyFrontier = on
	return was
}
