//go:build linux

package private_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/target-oracle/target-oracle/internal/private"
)

// TestAttackDeviceNodeIsNarrowedTo0600 (finding: damages the host; no
// row lost): OpenFile narrows whatever is at the path to 0600, not only
// regular files. summary_path (or reject_path) "/dev/null" — a natural
// way to switch the file off — is accepted and, the target running as
// root (the usual container), /dev/null becomes crw------- for the whole
// host: every other user's process that writes to /dev/null fails from
// then on. The same for a FIFO or a tty. Reproduction with the binary (on
// a copy of the node, not the real /dev/null): mknod n c 1 3; chmod 666
// n; --dry-run --config {"summary_path":"$PWD/n"} → exit 0, n is now
// crw-------. The test needs root for mknod and is skipped otherwise.
func TestAttackDeviceNodeIsNarrowedTo0600(t *testing.T) {
	// was: t.Skip("finding: summary_path or reject_path naming a device node (/dev/null) chmods it to 0600; run as root, /dev/null becomes unwritable for every other user of the host")
	node := filepath.Join(t.TempDir(), "null")
	if err := syscall.Mknod(node, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Skipf("mknod needs root: %v", err)
	}
	if err := os.Chmod(node, 0o666); err != nil { // past the umask
		t.Fatal(err)
	}
	f, err := private.OpenFile(node, os.O_TRUNC)
	if err == nil {
		f.Close()
	}
	fi, err := os.Stat(node)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o666 {
		t.Errorf("the device node's mode is now %v, was crw-rw-rw-", fi.Mode())
	}
}
