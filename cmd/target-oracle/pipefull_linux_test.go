//go:build linux

package main

import (
	"os"
	"syscall"
	"unsafe"
)

// pipeFull reports whether the pipe whose read end is r holds as many bytes
// as it can take: its writer is then blocked writing (or will be at its next
// write). Linux: F_GETPIPE_SZ gives the capacity, FIONREAD (TIOCINQ) the
// bytes queued.
func pipeFull(r *os.File) (bool, error) {
	raw, err := r.SyscallConn()
	if err != nil {
		return false, err
	}
	var full bool
	var serr error
	err = raw.Control(func(fd uintptr) {
		size, _, e := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETPIPE_SZ, 0)
		if e != 0 {
			serr = e
			return
		}
		var queued int32
		if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&queued))); e != 0 {
			serr = e
			return
		}
		full = int64(queued) >= int64(size)
	})
	if err == nil {
		err = serr
	}
	return full, err
}
