package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/target-oracle/target-oracle/internal/config"
)

// summaryCollision refuses a summary_path that names a file the run reads
// or writes otherwise. The summary is opened, and emptied, when the run
// starts: on the --input file it emptied the input (the run then loaded
// nothing and exited 0); on reject_path it replaced, at the end, rejected
// records that a written STATE already covered; on a settings file, .env or
// the test store it destroyed them.
func summaryCollision(o options, cfg *config.Config, std IO) error {
	others := []struct{ what, path string }{
		{"the --input file", o.input},
		{"reject_path", cfg.RejectPath},
		{"the --dry-run-dump folder", o.dumpDir},
		{StoreEnv, getenv(std.Env, StoreEnv)},
	}
	for _, c := range o.configs {
		if c != "ENV" {
			others = append(others, struct{ what, path string }{"the --config file", c})
		}
	}
	if std.Dir != "" {
		others = append(others, struct{ what, path string }{"the .env file", filepath.Join(std.Dir, ".env")})
	}
	for _, other := range others {
		if other.path != "" && samePath(cfg.SummaryPath, other.path) {
			return fmt.Errorf("summary_path %q is %s: the summary would overwrite it (it is emptied when the run starts); give it a file of its own", cfg.SummaryPath, other.what)
		}
	}
	return nil
}

// samePath reports whether a and b name one file: the same absolute path,
// or, both existing, the same file (a link, another spelling).
func samePath(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	ab, err2 := filepath.Abs(b)
	if err1 == nil && err2 == nil && aa == ab {
		return true
	}
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}
