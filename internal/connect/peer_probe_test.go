package connect_test

import (
	"context"
	"database/sql"
	"strings"
	"testing"

	go_ora "github.com/sijms/go-ora/v2"

	"github.com/target-oracle/target-oracle/internal/connect"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/wirepeer"
	"github.com/target-oracle/target-oracle/internal/wirepeer/fakewire"
)

// TestProbeThroughThePeer runs the connect-time probes through go-ora
// v2.9.0 to the wire peer and the fake behind it (a 19c server): every
// probe query is described, fetched and scanned as on a server, and the
// 32K string-bind probe sees go-ora's own switch: with the capability bit
// the 4,001-byte bind travels as VARCHAR (answer 4001), without it as a
// LONG bind, which a select list refuses (ORA-00997), and the target
// keeps 4,000-byte binds although MAX_STRING_SIZE says EXTENDED.
func TestProbeThroughThePeer(t *testing.T) {
	for _, c := range []struct {
		name       string
		maxString  int
		bit        bool
		size       string
		bindBytes  int
		warningHas string
	}{
		{"standard", 4000, false, "STANDARD", 0, ""},
		{"extended", 32767, true, "EXTENDED", 32767, ""},
		{"extended without the capability bit", 32767, false, "EXTENDED", 4000, "a 4001-byte string bind failed with"},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := fake.New(fake.Options{Schema: "SCOTT", MaxStringBytes: c.maxString})
			p, err := wirepeer.Start(wirepeer.Facts{Backend: fakewire.Backend(db), Varchar32K: c.bit})
			if err != nil {
				t.Fatal(err)
			}
			sdb := sql.OpenDB(go_ora.NewConnector(p.URL()))
			defer func() {
				sdb.Close()
				p.Close()
				if err := p.Err(); err != nil {
					t.Errorf("peer: %v", err)
				}
				if u := p.Unserved(); len(u) > 0 {
					t.Errorf("not served: %v", u)
				}
			}()
			conn, err := sdb.Conn(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			info, err := connect.Probe(context.Background(), conn)
			if err != nil {
				t.Fatal(err)
			}
			if info.Version != "19.3.0.0.0" || info.Major != 19 || info.Edition != "Enterprise Edition" || info.Compatible != "19.0.0" ||
				info.IdentifierMaxBytes != 128 || info.DBCharset != "AL32UTF8" || info.NCharset != "AL16UTF16" ||
				info.CurrentSchema != "SCOTT" || info.BooleanType || info.JSONType || info.ServiceName != "FREEPDB1" {
				t.Errorf("server facts %+v", info)
			}
			if info.MaxStringSize != c.size || info.StringBindBytes != c.bindBytes {
				t.Errorf("MAX_STRING_SIZE %s, string binds %d; want %s, %d", info.MaxStringSize, info.StringBindBytes, c.size, c.bindBytes)
			}
			warnings := strings.Join(info.Warnings, "\n")
			if c.warningHas == "" && warnings != "" || !strings.Contains(warnings, c.warningHas) {
				t.Errorf("warnings %q, want %q", warnings, c.warningHas)
			}
		})
	}
}
