package wirepeer_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNotInBinaries checks that no command links the peer or its fake
// adapter (wirepeer/fakewire): they are test code, imported only from
// _test.go files.
func TestNotInBinaries(t *testing.T) {
	const peer = "github.com/target-oracle/target-oracle/internal/wirepeer"
	out, err := exec.Command("go", "list", "-deps", "github.com/target-oracle/target-oracle/cmd/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == peer || strings.HasPrefix(pkg, peer+"/") {
			t.Fatalf("a command links %s", pkg)
		}
	}
	if !strings.Contains(string(out), "github.com/sijms/go-ora/v2") {
		t.Fatalf("go list -deps printed no go-ora: the check would pass vacuously:\n%s", out)
	}
}
