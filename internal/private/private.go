// Package private opens the files the target writes that may hold a tap's
// data or the run's details (reject_path, summary_path) so that only their
// owner can read them, whatever was at the path before.
package private

import (
	"fmt"
	"os"
)

// OpenFile opens path for writing with flag (os.O_APPEND or os.O_TRUNC
// and the like; O_WRONLY and O_CREATE are added), mode 0600. A symlink at
// path is refused rather than followed, so the file cannot be redirected
// onto another one, and an existing regular file is narrowed to 0600, since open
// keeps the mode a file already has.
func OpenFile(path string, flag int) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s is a symlink; refusing to follow it", path)
	}
	f, err := os.OpenFile(path, flag|os.O_WRONLY|os.O_CREATE|oNoFollow, 0o600)
	if err != nil {
		return nil, err
	}
	// Only a regular file is narrowed: a device node ("/dev/null", to
	// switch the output off) or a FIFO is the system's or another
	// program's, and root narrowing /dev/null would break every other
	// user of the host.
	if fi, err := f.Stat(); err != nil || fi.Mode().IsRegular() {
		if err == nil {
			err = f.Chmod(0o600)
		}
		if err != nil {
			f.Close()
			return nil, err
		}
	}
	return f, nil
}
