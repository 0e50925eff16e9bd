package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// summary_path naming a file the run reads or writes otherwise is a
// configuration error before anything is opened: the file keeps its bytes.
// Before, the summary emptied the --input file at start (exit 0, nothing
// loaded) and replaced at the end the rejected records a written STATE
// covered (findings of the h-atk2 attack).
func TestSummaryPathCollisionsAreRefused(t *testing.T) {
	schema := `{"type":"SCHEMA","stream":"s","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"}}}}` + "\n"
	input := schema + `{"type":"RECORD","stream":"s","record":{"id":1}}` + "\n" + `{"type":"STATE","value":1}` + "\n"
	dir := t.TempDir()
	in := filepath.Join(dir, "in.singer")
	rejects := filepath.Join(dir, "r.jsonl")
	cfgPath := filepath.Join(dir, "c.json")
	for _, c := range []struct {
		name, summary, what string
		settings            string
	}{
		{"input", in, "the --input file", ""},
		{"input, another spelling", filepath.Join(dir, ".", "x", "..", "in.singer"), "the --input file", ""},
		{"reject_path", rejects, "reject_path", `,"on_invalid_record":"reject"`},
		{"the settings file", cfgPath, "the --config file", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			for p, body := range map[string]string{in: input, rejects: "kept\n"} {
				if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			cfg := `{"reject_path":"` + rejects + `","summary_path":"` + c.summary + `"` + c.settings + `}`
			if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
				t.Fatal(err)
			}
			out, errs, code := runMain(t, "", nil, "--dry-run", "--config", cfgPath, "--input", in)
			if code != ExitConfig || out != "" || !strings.Contains(errs, "summary_path") || !strings.Contains(errs, "is "+c.what) {
				t.Fatalf("exit %d, state %q, stderr:\n%s\nwant exit 2 naming %s", code, out, errs, c.what)
			}
			for p, body := range map[string]string{in: input, rejects: "kept\n", cfgPath: cfg} {
				if b, _ := os.ReadFile(p); string(b) != body {
					t.Errorf("%s now holds %q", p, b)
				}
			}
		})
	}
	// A file of its own still works.
	if err := os.WriteFile(cfgPath, []byte(`{"summary_path":"`+filepath.Join(dir, "summary.json")+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, errs, code := runMain(t, "", nil, "--dry-run", "--config", cfgPath, "--input", in); code != ExitOK || out != "1\n" {
		t.Fatalf("exit %d, state %q: %s", code, out, errs)
	}
}

// resolved finds the file the system would open: through a link to a
// folder, and with ".." after a link taken from the link's target (as
// open(2) does), not from the text; past what exists, as written.
func TestResolvedFollowsTheSystemsLookup(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"a/b", "real"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "real"), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "a", "b"), filepath.Join(dir, "link2")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, want string }{
		{dir + "/link/f.json", dir + "/real/f.json"},
		{dir + "/link2/../f.json", dir + "/a/f.json"},
		{dir + "/x/../f.json", dir + "/f.json"},
		{dir + "/missing/deeper/f.json", dir + "/missing/deeper/f.json"},
		{dir + "/link/missing/../f.json", dir + "/real/missing/../f.json"},
	} {
		if got, want := resolved(c.in), filepath.FromSlash(c.want); got != filepath.Clean(want) && got != want {
			t.Errorf("resolved(%q) = %q, want %q", c.in, got, want)
		}
	}
}

// An existing file that is not a summary is not emptied at start (a BATCH
// file the input lists later, anyone's file); a summary of an earlier run
// and an empty file are replaced as before.
func TestSummaryPathKeepsAFileThatIsNoSummary(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.singer")
	if err := os.WriteFile(in, []byte(`{"type":"STATE","value":1}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	sum := filepath.Join(dir, "summary.json")
	cfg := writeFile(t, "c.json", `{"summary_path":"`+sum+`"}`)
	for _, c := range []struct {
		name, before string
		code         int
	}{
		{"no file", "", ExitOK},
		{"an earlier summary", "{\n  \"streams\": {},\n  \"status\": \"succeeded\"\n}\n", ExitOK},
		{"rows of a BATCH file", "{\"id\":1}\n{\"id\":2}\n", ExitConfig},
		{"text", "notes\n", ExitConfig},
	} {
		os.Remove(sum)
		if c.before != "" {
			if err := os.WriteFile(sum, []byte(c.before), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		out, errs, code := runMain(t, "", nil, "--dry-run", "--config", cfg, "--input", in)
		if code != c.code {
			t.Fatalf("%s: exit %d, want %d; state %q\n%s", c.name, code, c.code, out, errs)
		}
		got, _ := os.ReadFile(sum)
		if c.code == ExitConfig && (string(got) != c.before || !strings.Contains(errs, "not a summary")) {
			t.Errorf("%s: the file now holds %q; stderr:\n%s", c.name, got, errs)
		}
		if c.code == ExitOK && !strings.HasPrefix(string(got), "{\n  \"streams\": ") {
			t.Errorf("%s: summary %q", c.name, got)
		}
	}
}
