package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/target-oracle/target-oracle/internal/config"
)

// summaryCollision refuses a summary_path that names a file the run reads
// or writes otherwise (standard output's file, settings files, folders
// of the dump, the wallet or tns_admin). The summary is opened, and
// emptied, when the run starts: on the --input file it emptied the input (the run then loaded
// nothing and exited 0); on reject_path it replaced, at the end, rejected
// records that a written STATE already covered; on a settings file, .env or
// the test store it destroyed them.
func summaryCollision(o options, cfg *config.Config, std IO) error {
	if f, ok := std.State.(interface{ Stat() (os.FileInfo, error) }); ok {
		// Standard output redirected to the same file: the summary would
		// replace the STATE lines.
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			if si, err := os.Stat(cfg.SummaryPath); err == nil && os.SameFile(fi, si) {
				return fmt.Errorf("summary_path %q is the file standard output goes to: the summary would overwrite the STATE lines; give it a file of its own", cfg.SummaryPath)
			}
		}
	}
	// Folders whose files the run reads or writes: the summary may not be
	// one of them.
	for _, dir := range []struct{ what, path string }{
		{"the --dry-run-dump folder", o.dumpDir},
		{"wallet_location", cfg.WalletLocation},
		{"tns_admin", cfg.TNSAdmin},
	} {
		if dir.path != "" && inside(cfg.SummaryPath, dir.path) {
			return fmt.Errorf("summary_path %q is inside %s %q: the summary would overwrite one of its files; give it a file of its own", cfg.SummaryPath, dir.what, dir.path)
		}
	}
	others := []struct{ what, path string }{
		{"the --input file", o.input},
		{"reject_path", cfg.RejectPath},
		{"the --dry-run-dump folder", o.dumpDir},
		{StoreEnv, getenv(std.Env, StoreEnv)},
		{"ssh_tunnel.known_hosts", cfg.SSHTunnel.KnownHosts},
	}
	if k := cfg.SSHTunnel.PrivateKey.Reveal(); k != "" && !strings.Contains(k, "\n") {
		others = append(others, struct{ what, path string }{"ssh_tunnel.private_key", k}) // a path, not PEM text
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

// inside reports whether path lies in folder dir (at any depth).
func inside(path, dir string) bool {
	ap, err1 := filepath.Abs(path)
	ad, err2 := filepath.Abs(dir)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(ad, ap)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
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
