package testkit_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/testkit"
)

// TestNotInBinaries: testkit is test code (it links the wire peer); no
// command may link it.
func TestNotInBinaries(t *testing.T) {
	const kit = "github.com/target-oracle/target-oracle/internal/testkit"
	out, err := exec.Command("go", "list", "-deps", "github.com/target-oracle/target-oracle/cmd/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "github.com/target-oracle/target-oracle/internal/config") {
		t.Fatalf("go list -deps printed no config package: the check would pass vacuously:\n%s", out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == kit {
			t.Fatalf("a command links %s", pkg)
		}
	}
}

func TestConfig(t *testing.T) {
	if got := testkit.Config(t, "").BatchSizeRows; got != 10000 {
		t.Errorf("defaults: batch_size_rows %d, want 10000", got)
	}
	if got := testkit.Config(t, `{"batch_size_rows": 7}`).BatchSizeRows; got != 7 {
		t.Errorf("batch_size_rows %d, want 7", got)
	}
}
