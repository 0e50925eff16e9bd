//go:build !unix

package batchfile

import "errors"

func mkfifo(string) error { return errors.New("no named pipes") }
