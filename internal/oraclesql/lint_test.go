package oraclesql

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// lintTool is ../shared/tools/oracle-sql-lint relative to the repository
// root, which is three levels above this package's directory.
const lintTool = "../../../shared/tools/oracle-sql-lint/oracle-sql-lint"

// TestLintGoldens runs the third-party grammar over every golden file
// (SPEC §12). It starts Node.js and takes a few seconds, so -short skips
// it; so does a checkout without ../shared or without node.
func TestLintGoldens(t *testing.T) {
	if testing.Short() {
		t.Skip("SQL lint skipped in -short mode")
	}
	if _, err := os.Stat(lintTool); err != nil {
		t.Skip("oracle-sql-lint not found: SQL lint skipped")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not found: SQL lint skipped")
	}
	files, err := filepath.Glob(filepath.Join("testdata", "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	out, err := exec.Command(lintTool, files...).CombinedOutput()
	if err != nil {
		t.Fatalf("oracle-sql-lint rejected golden SQL: %v\n%s", err, out)
	}
}
