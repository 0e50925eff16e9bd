//go:build !unix

package main

// checkStdoutOpen has nothing to check where the runtime does not replace
// closed standard descriptors.
func checkStdoutOpen() error { return nil }

// stdinClosed: see stdout_unix.go.
func stdinClosed() bool { return false }
