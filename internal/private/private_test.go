package private

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestOpenFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("file modes are Unix modes")
	}
	dir := t.TempDir()
	open := filepath.Join(dir, "rejects.jsonl")
	if err := os.WriteFile(open, []byte("old\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	os.Chmod(open, 0o666) // whatever the umask made of it
	f, err := OpenFile(open, os.O_APPEND)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("new\n")
	f.Close()
	fi, _ := os.Stat(open)
	b, _ := os.ReadFile(open)
	if fi.Mode().Perm() != 0o600 || string(b) != "old\nnew\n" {
		t.Fatalf("mode %v content %q: want 0600 and the line appended", fi.Mode().Perm(), b)
	}

	target := filepath.Join(dir, "elsewhere")
	os.WriteFile(target, []byte("keep"), 0o644)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Skip(err)
	}
	if _, err := OpenFile(link, os.O_TRUNC); err == nil {
		t.Fatal("a symlink was followed")
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Fatalf("the link's target changed: %q", b)
	}
}
