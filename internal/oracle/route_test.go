package oracle_test

import (
	"database/sql"
	"os"
	"strings"
	"testing"

	go_ora "github.com/sijms/go-ora/v2"

	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/wirepeer"
	"github.com/target-oracle/target-oracle/internal/wirepeer/fakewire"
)

// wireRouteEnv set to 1 runs this package's engine tests through the wire
// peer: the engine dials go-ora v2.9.0 over loopback, the peer decodes
// every call and hands it to the same fake server (wirepeer/fakewire).
// Otherwise the engine calls the fake through the Conn seam directly.
const wireRouteEnv = "TARGET_ORACLE_TEST_WIRE"

func onWire() bool { return os.Getenv(wireRouteEnv) == "1" }

// wireDialer starts a wire peer over db whose facts match o (the VARCHAR
// limit, the database character set) and returns a dialer of pinned
// go-ora sessions to it. Pooled connections are not kept (MaxIdleConns
// 0): each engine session is one wire connection and one fake session, as
// on the direct route. At cleanup the peer must have decoded everything
// and found no declaration a server would read otherwise.
func wireDialer(t testing.TB, db *fake.DB, o oracle.Options) oracle.Dialer {
	t.Helper()
	dial, _ := wirePeer(t, db, o, nil)
	return dial
}

// wirePeer is wireDialer that also returns the peer; go-ora dials
// through turns when it is not nil.
func wirePeer(t testing.TB, db *fake.DB, o oracle.Options, turns *wirepeer.TurnCounter) (oracle.Dialer, *wirepeer.Peer) {
	t.Helper()
	f := wirepeer.Facts{Backend: fakewire.Backend(db), Varchar32K: o.MaxStringBytes > 4000}
	switch o.Charset {
	case "", "AL32UTF8":
	case "WE8MSWIN1252":
		f.Charset = wirepeer.WE8MSWIN1252
	default:
		t.Skipf("not through the wire peer: database character set %s", o.Charset)
	}
	p, err := wirepeer.Start(f)
	if err != nil {
		t.Fatal(err)
	}
	conn := go_ora.NewConnector(p.URL()).(*go_ora.OracleConnector)
	if turns != nil {
		conn.Dialer(turns)
	}
	sdb := sql.OpenDB(conn)
	sdb.SetMaxIdleConns(0)
	t.Cleanup(func() {
		sdb.Close()
		p.Close()
		if err := p.Err(); err != nil {
			t.Errorf("wire peer: %v", err)
		}
		for _, e := range p.Executes() {
			for _, pr := range e.Problems {
				t.Errorf("wire peer: %.60q: %s", e.SQL, pr)
			}
		}
		for _, u := range p.Unserved() {
			t.Logf("wire peer: not served: %s", u)
		}
	})
	return oracle.DialDB(sdb), p
}

// TestFaultsThroughThePeer runs the fault input through go-ora and the wire
// peer in every `go test` (the whole suite does with TARGET_ORACLE_TEST_WIRE=1):
// a lost connection at a MERGE, a deadlock at an INSERT and a commit whose
// reply is lost are retried to the embedded engine's tables and states.
func TestFaultsThroughThePeer(t *testing.T) {
	input := faultInput()
	sites := callSites(0)
	for _, name := range []string{"merge/later", "insert/later", "commit/upsert"} {
		c, ok := sites[name]
		if !ok {
			t.Fatalf("no call site %s", name)
		}
		t.Run(name, func(t *testing.T) {
			mem, wantStates, err := runMemory(t, c.settings, input)
			if err != nil {
				t.Fatal(err)
			}
			db := fake.New(fake.Options{Schema: schemaName, Now: clock})
			o := oracle.Options{Sleep: instant}
			dial, p := wirePeer(t, db, o, nil)
			r := &rig{db: db, eng: oracle.New(dial, oraclesql.New(oraclesql.Options{ColumnComments: true}), o)}
			f := c.fault
			if name == "insert/later" {
				f.Code = 60
			}
			if name == "commit/upsert" {
				f.Applied = true
			}
			r.db.Inject(f)
			states, err := run(t, r.eng, c.settings, input)
			if err != nil {
				t.Fatalf("run failed: %v", err)
			}
			if got, want := strings.Join(states, "|"), strings.Join(wantStates, "|"); got != want {
				t.Errorf("states %s, want %s", got, want)
			}
			if r.db.Calls(f.Op) < f.Nth {
				t.Fatalf("the fault at %s #%d never fired", f.Op, f.Nth)
			}
			compare(t, oracleSnapshot(t, r, nil), memorySnapshot(mem, nil))
			var dropped int
			for _, call := range p.Calls() {
				if call.ORA != 0 {
					dropped++
				}
			}
			if dropped == 0 {
				t.Errorf("no call failed on the wire")
			}
		})
	}
}
