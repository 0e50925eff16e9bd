package cli

import (
	"encoding/json"
	"net"
	"slices"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/testkit"
	"github.com/target-oracle/target-oracle/internal/wirepeer"
	"github.com/target-oracle/target-oracle/internal/wirepeer/fakewire"
)

// TestOneShotOverTheWirePeer runs --verify and --benchmark end to end
// through the real go-ora client against the wire peer (internal/wirepeer)
// with the fake Oracle's SQL interpreter behind it: the server probe,
// --check's queries, the DDL, array INSERT and MERGE with every bind class
// (RAW, LONG RAW and temporary BLOBs among them), the readback queries
// and the drops. Both exit 0 with a passing report, every scratch table
// dropped, and the peer served every call.
func TestOneShotOverTheWirePeer(t *testing.T) {
	db := fake.New(fake.Options{Schema: "SCOTT"})
	p := testkit.Peer(t, wirepeer.Facts{Backend: fakewire.Backend(db)})
	host, port, _ := net.SplitHostPort(p.Addr())
	cfg := writeFile(t, "c.json", `{"host":"`+host+`","port":`+port+`,"service_name":"FREEPDB1","user":"scott","password":"tiger","connect_timeout_seconds":10}`)
	for _, mode := range [][]string{{"--verify"}, {"--benchmark", "--rows", "1000"}} {
		args := append([]string{"--config", cfg, "--format", "json"}, mode...)
		out, errs, code := runMain(t, "", nil, args...)
		var rep struct {
			OK      bool
			CheckOK bool `json:"check_ok"`
			Tables  []string
			Dropped []string
			Errors  []string
			Results []struct{ Case, Type, Path, Status, Detail string }
			Figures []struct {
				Case       string
				Rows       int
				RoundTrips int64 `json:"round_trips"`
				Error      string
			}
		}
		if code != ExitOK || json.Unmarshal([]byte(out), &rep) != nil || !rep.OK || !rep.CheckOK {
			t.Errorf("%s over the wire peer: exit %d, stdout %.3000s, stderr %.3000s\nnot served: %v", mode[0], code, out, errs, p.Unserved())
			continue
		}
		if len(rep.Tables) == 0 || !slices.Equal(rep.Tables, rep.Dropped) || len(rep.Errors) > 0 {
			t.Errorf("%s: tables %v, dropped %v, errors %v", mode[0], rep.Tables, rep.Dropped, rep.Errors)
		}
		switch mode[0] {
		case "--verify":
			types, paths := map[string]bool{}, map[string]bool{}
			for _, r := range rep.Results {
				if r.Status != "pass" {
					t.Errorf("--verify: %s %s: %s %s", r.Path, r.Case, r.Status, r.Detail)
				}
				types[r.Type], paths[r.Path] = true, true
			}
			// The history table's three batches went through go-ora too.
			if !paths["history-insert"] || !paths["history-close"] || !paths["history-rerun"] {
				t.Errorf("--verify: paths %v, want the history table's", paths)
			}
			// Two tables (settings, national), three paths per case.
			if len(rep.Results) < 100 || !types["RAW(2000)"] || !types["BLOB"] || !types["NCLOB"] {
				t.Errorf("--verify: %d results, types %v", len(rep.Results), types)
			}
		case "--benchmark":
			if len(rep.Figures) == 0 {
				t.Errorf("--benchmark: no figures")
			}
			for _, f := range rep.Figures {
				if f.Error != "" || f.Rows == 0 || f.RoundTrips == 0 {
					t.Errorf("--benchmark figure %+v", f)
				}
			}
		}
	}
	// The history table has a CLOB and a BLOB, its versions' chunks read by
	// key and valid-from through go-ora.
	var histLOBs, versionChunks bool
	for _, st := range db.Statements() {
		histLOBs = histLOBs || strings.Contains(st, `"_SDC_VALID_FROM" TIMESTAMP(9) NOT NULL`) && strings.Contains(st, `"C" CLOB`) && strings.Contains(st, `"BL" BLOB`)
		versionChunks = versionChunks || strings.HasPrefix(st, "SELECT DBMS_LOB.SUBSTR(") && strings.Contains(st, `AND "_SDC_VALID_FROM" = TO_TIMESTAMP(`)
	}
	if !histLOBs || !versionChunks {
		t.Errorf("--verify history table: CLOB and BLOB columns %v, LOB chunks read per version %v", histLOBs, versionChunks)
	}
	// Temporary LOBs (NCLOB, BLOB) and LONG binds (CLOB, LONG RAW) crossed
	// the wire.
	if l := db.LOBs(); l.TempLOBs == 0 || l.LongBinds == 0 {
		t.Errorf("LOB statistics %+v: want temporary LOBs and LONG binds", l)
	}
	if left := slices.DeleteFunc(db.Tables(), func(q string) bool { return !strings.Contains(q, "TARGET_ORACLE$") }); len(left) > 0 {
		t.Errorf("scratch tables left on the server: %v", left)
	}
	if u := p.Unserved(); len(u) > 0 {
		t.Errorf("not served: %v", u)
	}
	if err := p.Err(); err != nil {
		t.Errorf("peer: %v", err)
	}
}
