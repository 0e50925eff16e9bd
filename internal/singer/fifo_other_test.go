//go:build !unix

package singer

import "errors"

func mkfifo(string) error { return errors.New("no named pipes") }
