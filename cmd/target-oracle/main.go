// Command target-oracle is a Singer target that loads a tap's output into
// Oracle Database. See README.md and docs/ for how to use it.
package main

import (
	"os"

	"github.com/target-oracle/target-oracle/internal/cli"
)

func main() {
	// Only STATE lines may reach file descriptor 1. Keep it for them and
	// point os.Stdout at stderr, so that anything else printing to
	// "stdout" (a library's fmt.Println) cannot corrupt a pipeline's state.
	state := os.Stdout
	os.Stdout = os.Stderr
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
