//go:build unix

package main

import (
	"errors"
	"os"
	"syscall"
)

// checkStdoutOpen fails when the process was started with file descriptor
// 1 closed (`>&-`): the Go runtime then opens /dev/null in its place, so
// every STATE would vanish and the run would exit 0 (SPEC §2). What the
// runtime opens is /dev/null read-write (runtime.checkfds); a deliberate
// `> /dev/null` from a shell, systemd's StandardOutput=null and os/exec's
// default open it write-only, and keep working.
func checkStdoutOpen() error {
	var st syscall.Stat_t
	if err := syscall.Fstat(1, &st); err != nil {
		return nil // not ours to judge; writes will report it
	}
	var null syscall.Stat_t
	if err := syscall.Stat(os.DevNull, &null); err != nil {
		return nil
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFCHR || st.Rdev != null.Rdev {
		return nil
	}
	flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, 1, syscall.F_GETFL, 0)
	if errno != 0 || flags&syscall.O_ACCMODE != syscall.O_RDWR {
		return nil
	}
	return errors.New("started with standard output (file descriptor 1) closed: STATE lines would be lost. " +
		"Give the target a standard output; to discard states on purpose, redirect it to /dev/null (> /dev/null)")
}
