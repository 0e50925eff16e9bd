package meltano

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/about"
)

// TestOneVersion: internal/about/VERSION is the one version of the source
// tree, and every place that states a version agrees with it: the Meltano
// definition pins it (DefaultVersion, meltano/target-oracle.yml), an
// unstamped build reports its development release (--version and
// --about read about.Version), and the packaging scripts' default wheel
// and binary versions are that same development release, read from the
// file, never a literal of their own.
func TestOneVersion(t *testing.T) {
	b, err := os.ReadFile("../about/VERSION")
	if err != nil {
		t.Fatalf("the version's one source of truth: %v", err)
	}
	release := strings.TrimSpace(string(b))
	if !regexp.MustCompile(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$`).MatchString(release) || string(b) != release+"\n" {
		t.Fatalf("internal/about/VERSION = %q, want one line X.Y.Z", b)
	}
	dev := release + ".dev0"
	if DefaultVersion != release {
		t.Errorf("the Meltano definition pins %q, the source tree is %q", DefaultVersion, release)
	}
	def, err := os.ReadFile(definitionPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(def), "\npip_url: "+Dist+"=="+release+"\n") {
		t.Errorf("%s does not pin %s==%s", definitionPath, Dist, release)
	}
	if got := about.Version(); got != dev {
		t.Errorf("an unstamped build reports %q, want %q (the development release of %s)", got, dev, release)
	}
	for _, f := range []string{"build-wheel.sh", "crossbuild.sh", "test-wheel.sh", "Dockerfile"} {
		text, err := os.ReadFile(filepath.Join("../../packaging", f))
		if err != nil {
			t.Fatal(err)
		}
		// A default version of its own (VERSION=0.0.0.dev0, ARG VERSION=1.2.3)
		// outside the usage comments.
		for _, line := range strings.Split(string(text), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "#") {
				continue
			}
			if regexp.MustCompile(`(^|[^_A-Z])VERSION(:-|=)[0-9]`).MatchString(line) {
				t.Errorf("packaging/%s has a default version of its own (%s); read internal/about/VERSION", f, strings.TrimSpace(line))
			}
		}
	}
	builtWheelVersion(t, dev)
}

// builtWheelVersion builds a wheel with packaging/build-wheel.sh, as a
// user would without VERSION, around a stand-in binary, and checks its
// name carries version.
func builtWheelVersion(t *testing.T, version string) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Log("no python3: the wheel's default version is checked by text only")
		return
	}
	dir := t.TempDir()
	stub := filepath.Join(dir, "target-oracle")
	if err := os.WriteFile(stub, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "../../packaging/build-wheel.sh", "linux", "amd64", filepath.Join(dir, "out"))
	cmd.Env = append(os.Environ(), "WHEEL_BINARY="+stub, "VERSION=")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("build-wheel.sh: %v\n%s", err, out)
	}
	name := filepath.Base(strings.TrimSpace(string(out)))
	if !strings.HasPrefix(name, "target_oracle_go-"+version+"-") {
		t.Errorf("build-wheel.sh without VERSION built %s, want version %s", name, version)
	}
}
