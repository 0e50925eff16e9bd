package pipeline

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"

	go_ora "github.com/sijms/go-ora/v2"

	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/testkit"
	"github.com/target-oracle/target-oracle/internal/wirepeer"
	"github.com/target-oracle/target-oracle/internal/wirepeer/fakewire"
)

// The Oracle engine keeps no value past Load (oracle.Engine.KeepsValues),
// so the loader gives its loaded batches' text blocks to later rows, as
// for the dry run. Through the real driver (go-ora v2.9.0) and the wire
// peer, into the fake Oracle: every row must arrive as read, LOB values
// (temporary LOBs) included, for one stream, a few and many (the pool).
// Under -race every block given back is overwritten first
// (Blocks.Poison), so a value go-ora or the engine read after the
// execute shows as garbage; without it, as another row's text.
func TestOracleEngineLoadsReusedBlocksAsRead(t *testing.T) {
	for _, c := range []struct {
		name             string
		streams, records int
		settings         string
	}{
		{"one stream", 1, 3000, `{"batch_size_rows": 700, "max_parallelism": 2}`},
		{"few streams", 3, 1500, `{"batch_size_rows": 450, "max_parallelism": 2, "load_method": "upsert"}`},
		{"many streams", maxStreamsWithSpare + 2, 320, `{"batch_size_rows": 150, "max_parallelism": 2}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			long := func(s, r int) string { return fmt.Sprintf("%d/%d:%s", s, r, strings.Repeat("y", 5000)) }
			// w past VARCHAR2(4000): a CLOB column, temporary LOBs.
			in := recycledInput(c.streams, c.records, 500, long)
			db := fake.New(fake.Options{Schema: "DRY_RUN"})
			peer := testkit.Peer(t, wirepeer.Facts{Backend: fakewire.Backend(db)})
			sdb := sql.OpenDB(go_ora.NewConnector(peer.URL()))
			t.Cleanup(func() { sdb.Close() })
			eng := oracle.New(oracle.DialDB(sdb), oraclesql.New(oraclesql.Options{IdentifierMaxBytes: 128}), oracle.Options{})
			p := runPipelineOn(t, testConfig(t, c.settings), eng, in, 4000)
			if err := eng.Close(); err != nil {
				t.Fatal(err)
			}
			for s := range c.streams {
				rows := db.Rows(fmt.Sprintf("DRY_RUN.S%d", s))
				if len(rows) != c.records {
					t.Fatalf("stream s%d: %d rows, want %d", s, len(rows), c.records)
				}
				for _, row := range rows {
					var id int
					fmt.Sscan(row["ID"], &id)
					if want := recycledVal(s, id); row["V"] != want {
						t.Fatalf("stream s%d, id %d: V = %.60q, want %.60q", s, id, row["V"], want)
					}
					want := ""
					if id%500 == 499 {
						want = long(s, id)
					}
					if row["W"] != want {
						t.Fatalf("stream s%d, id %d: W = %.40q (%d bytes), want %.40q", s, id, row["W"], len(row["W"]), want)
					}
				}
			}
			if p.blocks == nil || p.blocks.Reused == 0 {
				t.Error("no text block was given to later rows")
			}
		})
	}
}
