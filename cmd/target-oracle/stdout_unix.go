//go:build unix

package main

import (
	"errors"
	"os"
	"syscall"
)

// checkStdoutOpen fails when the process was started with file descriptor
// 1 closed (`>&-`): the Go runtime then opens /dev/null in its place, so
// every STATE would vanish and the run would exit 0 (SPEC §2). A /dev/null
// opened read-write by the caller (Python's subprocess.DEVNULL, sh's <>)
// looks the same, which is why only a load is refused (cli.IO.StateClosed),
// with a message that says how to discard states on purpose.
func checkStdoutOpen() error {
	if runtimeDevNull(1) {
		return errors.New("started with standard output (file descriptor 1) closed: STATE lines would be lost. " +
			"Give the target a standard output; to discard states on purpose, open /dev/null for writing only (> /dev/null; " +
			"Python's subprocess.DEVNULL opens it read-write, which cannot be told from a closed descriptor)")
	}
	if readOnly(1) {
		return errors.New("started with standard output (file descriptor 1) open for reading only: no STATE line could be written, " +
			"and rows would commit without one. Give the target a writable standard output (> file, a pipe, or > /dev/null to discard states)")
	}
	return nil
}

// readOnly reports a descriptor open for reading only (`1<file`): every
// write to it fails, which a load would find only at its first STATE,
// after its first batch committed.
func readOnly(fd int) bool {
	flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFL, 0)
	return errno == 0 && flags&syscall.O_ACCMODE == syscall.O_RDONLY
}

// stdinClosed reports a process started with file descriptor 0 closed
// (`<&-`, an orchestrator that failed to connect the tap): reading the
// runtime's /dev/null would load nothing and exit 0 as a run of an empty
// tap does. A deliberate `< /dev/null` (opened read-only) still reads as
// empty input.
func stdinClosed() bool { return runtimeDevNull(0) }

// runtimeDevNull reports whether fd is the /dev/null the Go runtime opens
// in place of a descriptor the process was started without: it opens it
// read-write (runtime.checkfds), while a shell's redirection, systemd's
// StandardOutput=null and os/exec's default open it for one direction.
func runtimeDevNull(fd int) bool {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return false // not ours to judge; reads and writes will report it
	}
	var null syscall.Stat_t
	if err := syscall.Stat(os.DevNull, &null); err != nil {
		return false
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFCHR || st.Rdev != null.Rdev {
		return false
	}
	flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFL, 0)
	return errno == 0 && flags&syscall.O_ACCMODE == syscall.O_RDWR
}
