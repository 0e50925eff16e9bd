//go:build unix

package private

import "syscall"

// oNoFollow makes the open fail on a symlink, closing the window
// between the Lstat check and the open.
const oNoFollow = syscall.O_NOFOLLOW
