package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const atk3Input = `{"type":"SCHEMA","stream":"s","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"}}}}
{"type":"RECORD","stream":"s","record":{"id":1}}
{"type":"STATE","value":1}
`

// TestAttackSummaryPathIsStdoutFile: the file fd 1 is redirected to is not
// among summaryCollision's files. Reproduce (shell):
//
//	echo '{"summary_path":"/tmp/x/state.out"}' > c.json
//	target-oracle --dry-run --config c.json --input in.singer > /tmp/x/state.out
//
// exits 0 and state.out holds the summary JSON: the STATE line "1" the run
// wrote is overwritten (STATE lost; an orchestrator reading the file gets
// no state, or a summary where it wants a STATE). /dev/stdout and
// /proc/self/fd/1 are refused (symlinks), the real file is not.
func TestAttackSummaryPathIsStdoutFile(t *testing.T) {
	// was: t.Skip("finding: summary_path naming the file stdout is redirected to is accepted; the summary overwrites the STATE lines (STATE lost)")
	dir := t.TempDir()
	in := filepath.Join(dir, "in.singer")
	stateOut := filepath.Join(dir, "state.out")
	cfg := filepath.Join(dir, "c.json")
	os.WriteFile(in, []byte(atk3Input), 0o600)
	os.WriteFile(cfg, []byte(`{"summary_path":"`+stateOut+`"}`), 0o600)
	f, err := os.Create(stateOut)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var errb strings.Builder
	code := Main([]string{"--dry-run", "--config", cfg, "--input", in}, IO{Stdin: strings.NewReader(""), State: f, Stderr: &errb, Dir: dir})
	got, _ := os.ReadFile(stateOut)
	if code == ExitOK && string(got) != "1\n" {
		t.Fatalf("exit 0 and the STATE file holds %q, want the STATE line \"1\\n\" (or exit 2 naming summary_path)", got)
	}
}

// TestAttackSummaryPathIsAnotherSettingsFile: summary_path naming the SSH
// private_key file or the wallet's cwallet.sso (files the run reads) is
// accepted and the file is emptied at start, then holds the summary.
// Reproduce: {"summary_path":"/k/id_rsa","ssh_tunnel":{"enable":true,
// "host":"h","username":"u","private_key":"/k/id_rsa"}} --dry-run: exit 0,
// id_rsa now holds the summary JSON; the same with wallet_location W and
// summary_path W/cwallet.sso. docs/guarantees: summary_path may not name
// another file of the run. The same, checked with the binary: ssh_tunnel
// known_hosts, and tns_admin's tnsnames.ora (both now hold the summary).
func TestAttackSummaryPathIsAnotherSettingsFile(t *testing.T) {
	// was: t.Skip("finding: summary_path naming the ssh_tunnel private_key file or wallet_location/cwallet.sso is accepted and destroys that file")
	dir := t.TempDir()
	in := filepath.Join(dir, "in.singer")
	os.WriteFile(in, []byte(atk3Input), 0o600)
	key := filepath.Join(dir, "id_rsa")
	wallet := filepath.Join(dir, "wallet")
	os.Mkdir(wallet, 0o700)
	sso := filepath.Join(wallet, "cwallet.sso")
	for name, settings := range map[string]string{
		"ssh key": `{"summary_path":"` + key + `","ssh_tunnel":{"enable":true,"host":"h","username":"u","private_key":"` + key + `"}}`,
		"wallet":  `{"summary_path":"` + sso + `","wallet_location":"` + wallet + `"}`,
	} {
		os.WriteFile(key, []byte("KEY\n"), 0o600)
		os.WriteFile(sso, []byte("WALLET\n"), 0o600)
		cfg := writeFile(t, "c.json", settings)
		_, errs, code := runMain(t, "", nil, "--dry-run", "--config", cfg, "--input", in)
		k, _ := os.ReadFile(key)
		w, _ := os.ReadFile(sso)
		if string(k) != "KEY\n" || string(w) != "WALLET\n" {
			t.Errorf("%s: exit %d, key file %q, wallet %q (want them kept and exit 2)\n%s", name, code, k, w, errs)
		}
	}
}

// TestAttackSummaryPathInsideDumpFolder: summary_path naming a file inside
// the --dry-run-dump folder (only the folder itself is compared):
// --dry-run-dump D with summary_path D/tables.json exits 0 and the summary
// is lost (tables.json holds the dump). Minor: no data lost.
func TestAttackSummaryPathInsideDumpFolder(t *testing.T) {
	// was: t.Skip("finding: summary_path inside the --dry-run-dump folder (D/tables.json) is accepted; one of the two files is lost")
	dir := t.TempDir()
	in := filepath.Join(dir, "in.singer")
	os.WriteFile(in, []byte(atk3Input), 0o600)
	dump := filepath.Join(dir, "dump")
	os.Mkdir(dump, 0o700) // an empty folder, as the dump accepts
	cfg := writeFile(t, "c.json", `{"summary_path":"`+filepath.Join(dump, "tables.json")+`"}`)
	_, errs, code := runMain(t, "", nil, "--dry-run", "--dry-run-dump", dump, "--config", cfg, "--input", in)
	if code != ExitConfig {
		t.Fatalf("exit %d, want 2 naming summary_path:\n%s", code, errs)
	}
}
