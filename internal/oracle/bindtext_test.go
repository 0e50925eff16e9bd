package oracle

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

// TestTimestampTextsShared: a timestamp value the row before also had
// shares its text; every row's text is still BindText of its own value.
func TestTimestampTextsShared(t *testing.T) {
	tz := table.Type{Kind: table.KindTimestamp, Frac: 6, TZ: true}
	bd := &oraclesql.Bind{Column: "AT", Type: tz, Source: oraclesql.FromRow, Index: 0}
	vals := []string{"2024-01-02T03:04:05.5Z", "2024-01-02T03:04:05.5Z", "", "", "2024-01-02", "2024-01-02T03:04:05Z", "2024-01-02T03:04:05Z", "2024-01-02T03:04:05.5Z"}
	rows := make([]engine.Row, len(vals))
	for i, v := range vals {
		rows[i] = engine.Row{Line: int64(i), Values: []string{v}}
	}
	b := newBinder(Options{MaxStringBytes: 4000})
	got, err := b.texts(bd, rows, len(rows), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vals {
		if want := oraclesql.BindText(tz, v); got[i] != want {
			t.Errorf("row %d (%q): text %q, want %q", i, v, got[i], want)
		}
	}
}

// TestLongShortcutMatchesFullCheck: long skips the closer look for values
// no longer than the VARCHAR and ORA-24816 limits; on random values
// around those limits (national, non-national and CLOB columns, a small
// and the standard VARCHAR limit, ASCII and multi-byte text) it finds
// the same long binds as checking every value.
func TestLongShortcutMatchesFullCheck(t *testing.T) {
	types := []table.Type{
		{Kind: table.KindVarchar, Length: 4000},
		{Kind: table.KindVarchar, Length: 4000, National: true},
		{Kind: table.KindClob},
		{Kind: table.KindClob, National: true},
	}
	rng := rand.New(rand.NewPCG(18, 7))
	for _, limit := range []int{10, 30, 4000, 32767} {
		for _, national := range []int{charsetAL16UTF16, charsetAL32UTF8} {
			b := newBinder(Options{MaxStringBytes: limit, NationalCharsetID: national})
			st := &oraclesql.Statement{SQL: "INSERT INTO T", Kind: oraclesql.KindDML}
			for j, ty := range types {
				st.Binds = append(st.Binds, oraclesql.Bind{Column: fmt.Sprint("C", j), Type: ty, Source: oraclesql.FromRow, Index: j})
			}
			rows := make([]engine.Row, 200)
			for i := range rows {
				v := make([]string, len(types))
				for j := range v {
					n := []int{0, 1, 5, 9, 10, 11, 15, 16, 29, 30, 31, 1999, 2000, 2001, 3999, 4000, 4001, 8001}[rng.IntN(18)]
					ch := []string{"a", "é", "€", "𝄞"}[rng.IntN(4)]
					v[j] = strings.Repeat(ch, n/len(ch))
				}
				rows[i] = engine.Row{Line: int64(i), Values: v}
			}
			for _, bareOK := range []bool{false, true} {
				got, err := b.long(st, rows, func(int) bool { return bareOK })
				if err != nil {
					t.Fatal(err)
				}
				want := fullLong(&b, st, rows, bareOK)
				if limit == 10 && got == nil {
					t.Fatal("no long values: the test checks nothing")
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("limit %d, national charset %d, bare %v: long binds %v, want %v", limit, national, bareOK, got, want)
				}
			}
		}
	}
}

// fullLong is long as it was before the shortcut: every value checked.
func fullLong(b *binder, st *oraclesql.Statement, rows []engine.Row, bareOK bool) map[int]longBinds {
	var out map[int]longBinds
	locBefore := map[int]bool{}
	for j := range st.Binds {
		bd := &st.Binds[j]
		if !isText(bd.Type) && !bd.Type.IsBinary() {
			continue
		}
		for i := range rows {
			s := rows[i].Values[bd.Index]
			fits := b.fits(bd.Type, s)
			if fits && !(locBefore[i] && b.wireLen(bd.Type, s) > expandedBytes) {
				continue
			}
			c := b.binaryClass(longClass(bd.Type, bareOK && !fits), s)
			if out == nil {
				out = map[int]longBinds{}
			}
			if out[i] == nil {
				out[i] = longBinds{}
			}
			out[i][j] = c
			if c.locator() {
				locBefore[i] = true
			}
		}
	}
	return out
}
