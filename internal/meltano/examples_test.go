package meltano

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/config"
)

const examplesDir = "../../examples"

// TestExampleConfigs loads every example connection config as the binary
// would, with the password from the environment as the examples advise, and
// checks that it loads without errors or warnings, is complete enough to
// connect, and means what its name says.
func TestExampleConfigs(t *testing.T) {
	for _, tc := range []struct {
		file  string
		check func(*config.Config) bool
	}{
		{"config-service-name.json", func(c *config.Config) bool {
			return c.ServiceName == "ORCLPDB1" && c.SID == "" && c.Protocol == "tcp"
		}},
		{"config-sid.json", func(c *config.Config) bool {
			return c.SID == "ORCL" && c.ServiceName == ""
		}},
		{"config-tcps.json", func(c *config.Config) bool {
			return c.Protocol == "tcps" && c.SSLVerify && c.WalletLocation != "" && c.Port == 2484
		}},
		{"config-wallet.json", func(c *config.Config) bool {
			return c.DSN.Reveal() == "mydb_high" && c.TNSAdmin != "" && c.WalletLocation == c.TNSAdmin
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join(examplesDir, tc.file)
			c, rep, err := config.Load(config.Sources{
				ConfigArgs: []string{path},
				Environ:    []string{"TARGET_ORACLE_PASSWORD=example"},
				WorkDir:    t.TempDir(),
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Warnings) > 0 {
				t.Errorf("warnings: %q", rep.Warnings)
			}
			if err := c.CheckConnection(); err != nil {
				t.Errorf("not enough to connect: %v", err)
			}
			if !tc.check(c) {
				t.Errorf("config does not say what its name promises: %+v", c)
			}
		})
	}
}

// TestExampleMeltanoProject checks the loader entry of examples/meltano.yml
// against the generated definition: same identity, real setting names only,
// every secret it declares sensitive, and the load schema mapped. Its
// pip_url installs the wheel a clone builds (nothing is published yet): the
// folder the README's build command writes, seen from examples/. Meltano
// and pip are not run here; this is the static check.
func TestExampleMeltanoProject(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(examplesDir, "meltano.yml"))
	if err != nil {
		t.Fatal(err)
	}
	_, loader, ok := strings.Cut(string(data), "\n  loaders:\n  - name: target-oracle\n")
	if !ok {
		t.Fatal("no target-oracle loader entry")
	}
	pip := LocalPipURL("../dist/wheels")
	if got, want := filepath.Clean(filepath.Join(examplesDir, "../dist/wheels")), filepath.Clean("../../dist/wheels"); got != want {
		t.Fatalf("the example's wheel folder %s is not the clone's dist/wheels (%s)", got, want)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if build := `packaging/build-wheel.sh "$(go env GOOS)" "$(go env GOARCH)" dist/wheels`; !strings.Contains(string(readme), build) ||
		!strings.Contains(string(data), build) {
		t.Errorf("README.md and examples/meltano.yml must both show the wheel build %q", build)
	}
	for _, want := range []string{
		"    namespace: " + Namespace + "\n",
		"    executable: " + Name + "\n",
		"    pip_url: " + pip + "\n",
		"      default_target_schema: $MELTANO_EXTRACT__LOAD_SCHEMA\n",
	} {
		if !strings.Contains(loader, want) {
			t.Errorf("loader entry lacks %q", want)
		}
	}

	byName := map[string]config.Setting{}
	for _, s := range config.Settings() {
		byName[s.Name] = s
	}
	section := ""
	var declared, configured []string
	sensitive := map[string]bool{}
	options := map[string][]string{}
	last := ""
	for _, line := range strings.Split(loader, "\n") {
		switch {
		case line == "    settings:", line == "    config:", line == "    capabilities:":
			section = strings.TrimSuffix(strings.TrimSpace(line), ":")
		case section == "settings" && strings.HasPrefix(line, "    - name: "):
			last = strings.TrimPrefix(line, "    - name: ")
			declared = append(declared, last)
		case section == "settings" && line == "      sensitive: true":
			sensitive[last] = true
		case section == "settings" && strings.HasPrefix(line, "        value: "):
			options[last] = append(options[last], strings.Trim(strings.TrimPrefix(line, "        value: "), `"`))
		case section == "config" && strings.HasPrefix(line, "      ") && !strings.HasPrefix(line, "       "):
			if k, _, ok := strings.Cut(strings.TrimSpace(line), ":"); ok && !strings.HasPrefix(k, "#") {
				configured = append(configured, k)
			}
		}
	}
	if len(declared) == 0 || len(configured) == 0 {
		t.Fatalf("parsed no settings (%d) or config keys (%d)", len(declared), len(configured))
	}
	for _, n := range slices.Concat(declared, configured) {
		if _, ok := byName[n]; !ok {
			t.Errorf("%s is not a setting", n)
		}
	}
	for _, n := range declared {
		if byName[n].Secret != sensitive[n] {
			t.Errorf("%s: sensitive = %v, secret = %v", n, sensitive[n], byName[n].Secret)
		}
		// A setting shown with options offers every value the binary
		// takes: a user picks from this list in Meltano.
		if o, ok := options[n]; ok && !slices.Equal(o, byName[n].Enum) {
			t.Errorf("%s: options %v, the setting takes %v", n, o, byName[n].Enum)
		}
	}
}
