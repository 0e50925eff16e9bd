package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/target-oracle/target-oracle/internal/config"
)

// The run's output files (summary_path, emptied when the run starts, and
// reject_path, appended to) may not be a file the run reads or writes
// otherwise (the input, standard input's or output's file, settings files,
// folders of the dump, the wallet or tns_admin). On the --input file the
// summary emptied the input (the run then loaded nothing and exited 0);
// on reject_path it replaced, at the end, rejected records that a written
// STATE already covered; rejects appended to the input were read back as
// input; on a settings file, .env or the test store it destroyed them.
// Paths are compared after symlinks are resolved as far as the path
// exists, so that a link to the folder, or ".." after a link, is seen
// through on a first run, when the output file does not exist yet.

// summaryCollision refuses a summary_path that names another file of the
// run (above), or an existing file that is not a summary (summaryFile).
func summaryCollision(o options, cfg *config.Config, std IO) error {
	others := outputOthers(o, cfg, std)
	others = append(others, named{"reject_path", cfg.RejectPath})
	if err := outputCollision("summary_path", cfg.SummaryPath, others, o, cfg, std); err != nil {
		return err
	}
	return summaryFile(cfg.SummaryPath)
}

// rejectCollision refuses a reject_path that names another file of the
// run (above). A file of rejects from earlier runs is appended to.
func rejectCollision(o options, cfg *config.Config, std IO) error {
	return outputCollision("reject_path", cfg.RejectPath, outputOthers(o, cfg, std), o, cfg, std)
}

type named struct{ what, path string }

// outputOthers are the files, other than the outputs, that the run reads
// or must not overwrite.
func outputOthers(o options, cfg *config.Config, std IO) []named {
	others := []named{
		{"the --input file", o.input},
		{"the --dry-run-dump folder", o.dumpDir},
		{StoreEnv, getenv(std.Env, StoreEnv)},
		{"ssh_tunnel.known_hosts", cfg.SSHTunnel.KnownHosts},
	}
	if k := cfg.SSHTunnel.PrivateKey.Reveal(); k != "" && !strings.Contains(k, "\n") {
		others = append(others, named{"ssh_tunnel.private_key", k}) // a path, not PEM text
	}
	for _, c := range o.configs {
		if c != "ENV" {
			others = append(others, named{"the --config file", c})
		}
	}
	if std.Dir != "" {
		others = append(others, named{"the .env file", filepath.Join(std.Dir, ".env")})
	}
	return others
}

// outputCollision refuses path, the setting what, when it is one of
// others, standard input's or output's file, or inside a folder the run
// reads or writes.
func outputCollision(what, path string, others []named, o options, cfg *config.Config, std IO) error {
	for _, s := range []struct {
		f    any
		name string
		lost string
	}{
		{std.State, "standard output goes to", "the STATE lines"},
		{std.Stdin, "standard input is read from", "the input"},
	} {
		if fi, ok := dataFile(s.f); ok {
			if pi, err := os.Stat(path); err == nil && os.SameFile(fi, pi) {
				return fmt.Errorf("%s %q is the file %s: %s would be overwritten; give it a file of its own", what, path, s.name, s.lost)
			}
		}
	}
	// Folders whose files the run reads or writes: the output may not be
	// one of them.
	for _, dir := range []named{
		{"the --dry-run-dump folder", o.dumpDir},
		{"wallet_location", cfg.WalletLocation},
		{"tns_admin", cfg.TNSAdmin},
	} {
		if dir.path != "" && inside(path, dir.path) {
			return fmt.Errorf("%s %q is inside %s %q: it would overwrite one of its files; give it a file of its own", what, path, dir.what, dir.path)
		}
	}
	for _, other := range others {
		if other.path != "" && samePath(path, other.path) {
			return fmt.Errorf("%s %q is %s: it would overwrite it; give it a file of its own", what, path, other.what)
		}
	}
	return nil
}

// ownFile is pipeline.Options.OwnFile: which of the run's own files path
// is (the ones an output may not be, standard input's and output's file,
// the dump folder and what is in it), or "".
func ownFile(o options, cfg *config.Config, std IO) func(path string) string {
	others := outputOthers(o, cfg, std)
	return func(path string) string {
		for _, s := range []struct {
			f    any
			name string
		}{{std.Stdin, "standard input's file"}, {std.State, "standard output's file"}} {
			if fi, ok := dataFile(s.f); ok {
				if pi, err := os.Stat(path); err == nil && os.SameFile(fi, pi) {
					return s.name
				}
			}
		}
		if o.dumpDir != "" && inside(path, o.dumpDir) {
			return "inside the --dry-run-dump folder"
		}
		for _, other := range others {
			if other.path != "" && samePath(path, other.path) {
				return other.what
			}
		}
		return ""
	}
}

// dataFile returns the file f is when it is an open regular file or
// named pipe: one whose data an output written to the same path would
// overwrite or join (a tap feeding the run through a FIFO, an
// orchestrator reading STATE lines from one). Devices are not compared:
// /dev/null for both discards both, as the user asked.
func dataFile(f any) (os.FileInfo, bool) {
	st, ok := f.(interface{ Stat() (os.FileInfo, error) })
	if !ok || f == nil {
		return nil, false
	}
	fi, err := st.Stat()
	return fi, err == nil && (fi.Mode().IsRegular() || fi.Mode()&os.ModeNamedPipe != 0)
}

// summaryHead is how every summary target-oracle writes begins
// (metrics.SummaryFile.Write: an indented JSON object, streams first).
var summaryHead = []byte("{\n  \"streams\": ")

// summaryFile refuses to empty an existing, non-empty regular file that
// is not a summary: a file of the tap's (a BATCH file its manifest names,
// read only later) or anyone's would be lost when the run starts. A
// summary is one JSON object that begins as every summary target-oracle
// writes does, and nothing after it: rejects another run appended to an
// old summary are not a summary either.
func summaryFile(path string) error {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
		return nil // absent, empty, a link (refused when opened) or no regular file: a FIFO's open waits for a writer
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil // unreadable: opening it to write will tell
	}
	defer f.Close()
	refuse := func(why string) error {
		return fmt.Errorf("summary_path %q holds a file that is not a summary target-oracle wrote (%s); the run would empty it when it starts: give summary_path a file of its own, or remove that file", path, why)
	}
	head := make([]byte, len(summaryHead))
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil
	}
	if !bytes.Equal(head[:n], summaryHead) {
		return refuse(fmt.Sprintf("it begins %q", head[:n]))
	}
	if fi.Size() > maxSummaryBytes {
		return refuse(fmt.Sprintf("%d bytes, more than a summary holds", fi.Size()))
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil
	}
	b, err := io.ReadAll(io.LimitReader(f, maxSummaryBytes))
	if err != nil {
		return nil // unreadable: opening it to write will tell
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	var obj map[string]json.RawMessage
	if err := dec.Decode(&obj); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) && indentedPrefix(b) {
			// A summary cut short: the run that wrote it was killed in
			// the write, or the disk filled. It is that run's own file,
			// and refusing it would stop every later run until someone
			// removes it.
			return nil
		}
		return refuse("it is no JSON object: " + err.Error())
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return refuse("more follows the summary's JSON object")
	}
	return nil
}

// indentedPrefix reports whether b is laid out as json.MarshalIndent
// (prefix "", indent "  ") lays out the summary, as far as it goes:
// outside strings, every '{' or '[' is followed by a newline or its empty
// close, every ',' by a newline and every ':' by a space. A summary cut
// short is; text another writer appended is not (a rejected record is a
// compact {"line":…} object), so a cut summary followed by anything else
// is still refused.
func indentedPrefix(b []byte) bool {
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		if i+1 >= len(b) {
			return true // the cut
		}
		next := b[i+1]
		switch c {
		case '"':
			inString = true
		case '{':
			if next != '\n' && next != '}' {
				return false
			}
		case '[':
			if next != '\n' && next != ']' {
				return false
			}
		case ',':
			if next != '\n' {
				return false
			}
		case ':':
			if next != ' ' {
				return false
			}
		}
	}
	return true
}

// maxSummaryBytes bounds the file summaryFile reads: a summary of
// pipeline.MaxStreams streams is a few megabytes.
const maxSummaryBytes = 64 << 20

// inside reports whether path lies in folder dir (at any depth).
func inside(path, dir string) bool {
	ap, ad := resolved(path), resolved(dir)
	if ap == "" || ad == "" {
		return false
	}
	rel, err := filepath.Rel(ad, ap)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// samePath reports whether a and b name one file: the same path once
// symlinks are resolved, or, both existing, the same file (a hard link).
func samePath(a, b string) bool {
	if ra, rb := resolved(a), resolved(b); ra != "" && ra == rb {
		return true
	}
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// resolved is path made absolute with its symlinks resolved as the
// system resolves them: component by component, so that ".." after a link
// leaves the link's target, not the link's folder (filepath.Abs alone
// cleans "link/../f" to the folder of link). Past the first component
// that does not exist the rest is appended as written. "" when the
// working folder is unknown.
func resolved(path string) string {
	vol := filepath.VolumeName(path)
	cur := vol + string(filepath.Separator)
	path = path[len(vol):]
	if !filepath.IsAbs(vol + path) {
		wd, err := os.Getwd()
		if err != nil {
			return ""
		}
		if cur, err = filepath.EvalSymlinks(wd); err != nil {
			return ""
		}
	}
	parts := strings.Split(filepath.ToSlash(path), "/")
	for i, part := range parts {
		switch part {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, part)
		fi, err := os.Lstat(next)
		if err != nil {
			return filepath.Join(append([]string{cur}, parts[i:]...)...)
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			if next, err = filepath.EvalSymlinks(next); err != nil {
				return filepath.Join(append([]string{cur}, parts[i:]...)...)
			}
		}
		cur = next
	}
	return cur
}
