package oracle_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
	"github.com/target-oracle/target-oracle/internal/wirepeer"
)

// TestNonUnicodeDatabaseOnTheWire runs the WE8MSWIN1252 scenario end to
// end through go-ora and the wire peer, whatever the suite's route: the
// peer announces WE8MSWIN1252 in the protocol negotiation, go-ora encodes
// the SQL text and the VARCHAR binds in it (the peer decodes them as
// such), national binds stay AL16UTF16 in form 2, the catalog's answers
// travel in WE8MSWIN1252 back to the engine's Describe, and text the set
// cannot hold is refused before anything is sent.
func TestNonUnicodeDatabaseOnTheWire(t *testing.T) {
	const cs = "WE8MSWIN1252"
	newRig := func(t *testing.T) (*rig, *wirepeer.Peer) {
		db := fake.New(fake.Options{Schema: schemaName, Now: clock, Charset: cs})
		o := oracle.Options{Charset: cs, Sleep: instant}
		dial, p := wirePeer(t, db, o, nil)
		return &rig{db: db, eng: oracle.New(dial, oraclesql.New(oraclesql.Options{ColumnComments: true}), o)}, p
	}
	tbl := &table.Table{Schema: schemaName, Name: "WIN", PrimaryKey: []string{"ID"}, Columns: []table.Column{
		prop("ID", integer, false),
		prop("V", table.Type{Kind: table.KindVarchar, Length: 100, CharSemantics: true}, true),
		prop("NV", table.Type{Kind: table.KindVarchar, Length: 100, CharSemantics: true, National: true}, true),
	}}
	tbl.Columns[1].Source = []string{"größe", "中"}

	t.Run("what it holds", func(t *testing.T) {
		r, p := newRig(t)
		rows := []map[string]string{{"ID": "1", "V": "€ü café", "NV": "中文 😀"}, {"ID": "2", "V": "plain", "NV": "x"}}
		loadAndCheck(t, r, tbl, engine.Upsert, rows)
		var merge *wirepeer.Execute
		for _, e := range p.Executes() {
			if strings.HasPrefix(e.SQL, "MERGE") {
				merge = e
			}
		}
		if merge == nil || len(merge.Rows) != 2 || len(merge.Binds) != 3 {
			t.Fatalf("no MERGE of 2 rows and 3 binds on the wire: %+v", merge)
		}
		if b := merge.Binds[1]; b.CSForm != 1 || b.CharsetID != wirepeer.WE8MSWIN1252 {
			t.Errorf("V declared form %d charset %d, want 1 and WE8MSWIN1252", b.CSForm, b.CharsetID)
		}
		if got, want := merge.Rows[0][1].Bytes, []byte{0x80, 0xFC, ' ', 'c', 'a', 'f', 0xE9}; !bytes.Equal(got, want) {
			t.Errorf("V sent as % x, want % x (Windows-1252)", got, want)
		}
		if b := merge.Binds[2]; b.CSForm != 2 || b.CharsetID != wirepeer.AL16UTF16 || merge.Rows[0][2].Text != "中文 😀" {
			t.Errorf("NV declared form %d charset %d, sent %q; want 2, AL16UTF16, 中文 😀", b.CSForm, b.CharsetID, merge.Rows[0][2].Text)
		}
		got, err := r.eng.Describe(context.Background(), schemaName, "WIN")
		if err != nil {
			t.Fatal(err)
		}
		if src := got.Column("V").Source; fmt.Sprint(src) != "[größe 中]" {
			t.Errorf("column comment path read back through the wire as %q, want [größe 中]", src)
		}
	})
	t.Run("what it cannot hold", func(t *testing.T) {
		r, p := newRig(t)
		s := session(t, r, tbl)
		before := len(p.Executes())
		_, err := s.Load(context.Background(), []engine.Step{write(tbl, engine.Insert,
			map[string]string{"ID": "1", "V": "fine", "NV": "x"}, map[string]string{"ID": "2", "V": "日本", "NV": "x"})})
		var ce *oracle.CharsetError
		if !errors.As(err, &ce) || ce.Line != 2 || ce.Column != "V" {
			t.Fatalf("err = %v, want a CharsetError for line 2 column V", err)
		}
		for _, e := range p.Executes()[before:] {
			if strings.HasPrefix(e.SQL, "INSERT") {
				t.Errorf("an INSERT reached the wire: %.60q", e.SQL)
			}
		}
		if n := len(r.db.Rows(tbl.QualifiedName())); n != 0 {
			t.Errorf("%d rows stored", n)
		}
	})
}
