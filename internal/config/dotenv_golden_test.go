package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestDotEnvGolden reads each testdata/dotenv/*.env and compares the
// values with NAME.json, which scripts/dotenv-golden.py writes from
// python-dotenv's own dotenv_values (the reader Meltano uses), with the
// process environment of environ.txt. A later key of the same name wins,
// as in the environment layer.
func TestDotEnvGolden(t *testing.T) {
	environ := readLines(t, "testdata/dotenv/environ.txt")
	files, _ := filepath.Glob("testdata/dotenv/*.env")
	if len(files) == 0 {
		t.Fatal("no testdata/dotenv/*.env")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var golden struct{ Values [][2]string }
			raw, err := os.ReadFile(strings.TrimSuffix(path, ".env") + ".json")
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(raw, &golden); err != nil {
				t.Fatal(err)
			}
			want := map[string]string{}
			for _, kv := range golden.Values {
				want[kv[0]] = kv[1]
			}
			vars, err := parseDotEnv(data, environ)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, kv := range vars {
				k, v, _ := strings.Cut(kv, "=")
				got[k] = v
			}
			if !reflect.DeepEqual(got, want) {
				for k, w := range want {
					if g, ok := got[k]; !ok || g != w {
						t.Errorf("%s = %q (set %v), python-dotenv: %q", k, g, ok, w)
					}
				}
				for k, g := range got {
					if _, ok := want[k]; !ok {
						t.Errorf("%s = %q, python-dotenv sets nothing", k, g)
					}
				}
			}
		})
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(data))
}

// TestDotEnvInterpolation: python-dotenv's dotenv_values (interpolate=True,
// its default and Meltano's) expands ${VAR} and ${VAR:-default} from
// earlier .env keys and the process environment; before this was built,
// TARGET_ORACLE_TABLE_PREFIX=${A}_ loaded into a table named $_A__...
// The values below are what python-dotenv 1.2.2 returns for this file
// (with DBHOST=db1 set); testdata/dotenv has the full cases.
func TestDotEnvInterpolation(t *testing.T) {
	dir := t.TempDir()
	content := "A=x\nTARGET_ORACLE_TABLE_PREFIX=${A}_\nTARGET_ORACLE_TABLE_SUFFIX=\"${UNSET_X:-d}\"\n" +
		"TARGET_ORACLE_HOST=${DBHOST}\nTARGET_ORACLE_USER=$A\n"
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	c, _, err := Load(Sources{ConfigArgs: []string{"ENV"}, Environ: []string{"DBHOST=db1"}, WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	got := []string{c.TablePrefix, c.TableSuffix, c.Host, c.User}
	want := []string{"x_", "d", "db1", "$A"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q (python-dotenv's values)", got, want)
	}
}

// FuzzDotEnv: any .env text either parses or fails with an error naming
// its line, never panics, and every key it returns is one the text holds.
func FuzzDotEnv(f *testing.F) {
	files, _ := filepath.Glob("testdata/dotenv/*.env")
	for _, path := range files {
		if data, err := os.ReadFile(path); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("A='x\nB=${A:-'y'}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		vars, err := parseDotEnv(data, []string{"P=process"})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "line ") {
				t.Fatalf("error names no line: %v", err)
			}
			return
		}
		for _, kv := range vars {
			k, _, ok := strings.Cut(kv, "=")
			if !ok || k == "" || !strings.Contains(string(data), k) {
				t.Fatalf("binding %q: key not in the input", kv)
			}
		}
	})
}
