package pipeline

// Every test of this package (the pipeline_test ones too: one binary)
// checks the frontier and the pending states' gaps, kept as they change,
// against a scan of every stream (frontier.go).
func init() { verifyFrontier = true }
