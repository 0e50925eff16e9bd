package sim

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// The target-oracle executable of the subprocess trials is built once per
// test binary, when the first trial needs it.
var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	binDir    string
)

func binaryFor(t *testing.T) string {
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "sim-bin-")
		if buildErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "target-oracle")
		out, err := exec.Command("go", "build", "-o", binPath, "github.com/target-oracle/target-oracle/cmd/target-oracle").CombinedOutput()
		if err != nil {
			buildErr = err
			t.Logf("%s", out)
		}
	})
	if buildErr != nil {
		t.Fatalf("building target-oracle: %v", buildErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}
