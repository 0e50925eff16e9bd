// Command target-oracle is a Singer target that loads a tap's output into
// Oracle Database. See README.md and docs/ for how to use it.
package main

import (
	"os"

	"github.com/target-oracle/target-oracle/internal/cli"
)

func main() {
	state := protectStdout()
	wd, _ := os.Getwd()
	os.Exit(cli.Main(os.Args[1:], cli.IO{
		Stdin:   os.Stdin,
		State:   state,
		Stderr:  os.Stderr,
		Env:     os.Environ(),
		Dir:     wd,
		Signals: cli.Signals(),
	}))
}

// protectStdout keeps file descriptor 1 for STATE lines and points
// os.Stdout at stderr, so that anything else printing to "stdout" (go-ora
// v2.9.0 has fmt.Println calls on protocol paths) cannot corrupt a
// pipeline's state. It returns the handle STATE lines are written to.
func protectStdout() *os.File {
	state := os.Stdout
	os.Stdout = os.Stderr
	return state
}
