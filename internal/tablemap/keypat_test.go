package tablemap

import (
	"fmt"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/table"
)

// keyPat.at must agree with a plain comparison of `"name":` for every
// name length around its 8- and 16-byte words, at every position up to the
// end of the buffer.
func TestKeyPatAt(t *testing.T) {
	for n := 0; n <= 20; n++ {
		name := strings.Repeat("k", n)
		k := newKeyPat(name, true)
		want := `"` + name + `":`
		for _, rest := range []string{"", "1", " 1}", strings.Repeat(" ", 20)} {
			for _, b := range []string{want + rest, `"` + name + `" :` + rest, `"` + name + `x":` + rest, `"` + name + `"` + rest, `"` + name + rest} {
				for pre := 0; pre < 3; pre++ {
					buf := []byte(strings.Repeat(",", pre) + b)
					got := k.at(buf, pre)
					if exp := strings.HasPrefix(string(buf[pre:]), want); got != exp {
						t.Fatalf("name of %d bytes: at(%q, %d) = %v, want %v", n, buf, pre, got, exp)
					}
				}
			}
		}
	}
	k := newKeyPat(`a"b`, false)
	if k.at([]byte(`"a\"b": 1,          `), 0) || k.at([]byte(`"a"b": 1,          `), 0) || k.at([]byte(`xxxxxxxxxxxxx`), 0) {
		t.Error("a key that is not plain matched in place")
	}
}

// Rows are converted straight into the text blocks they are cut from:
// a later row, one that outgrows its block's free end, or one larger than
// a block must never change a row handed out before.
func TestRowTextKeepsEarlierRows(t *testing.T) {
	root := tree(p("id", in), p("s", str|nl))
	l, err := NewLayout("s", root, []string{"id"}, baseOpts(), nil)
	if err != nil {
		t.Fatal(err)
	}
	sCol := l.Table().ColumnIndex("S")
	type kept struct{ row []string }
	var rows []kept
	var want [][]string
	sizes := []int{0, 3, 100, 600, 10, 5000, 16 << 10, 20 << 10, 7, 15 << 10, 40 << 10, 1, 2000, 16<<10 + 1, 300}
	for i := 0; i < 300; i++ {
		n := sizes[i%len(sizes)] + i%7
		rec := fmt.Sprintf(`{"id": %d, "s": "%s"}`, i+1, strings.Repeat(string(rune('a'+i%26)), n))
		row := make([]string, l.Columns())
		if err := l.Row([]byte(rec), nil, row, make([]table.Stats, l.Columns()), nil); err != nil {
			t.Fatal(err)
		}
		if i%5 == 4 {
			// A failed row writes into the block's free end and is dropped.
			if err := l.Row([]byte(`{"id": 1, "s": "`+strings.Repeat("z", n)+`", "id": "x"}`), nil, make([]string, l.Columns()), nil, nil); err == nil {
				t.Fatal("a record with a key that is no integer converted")
			}
		}
		rows = append(rows, kept{row})
		copied := make([]string, len(row))
		for c, v := range row {
			copied[c] = strings.Clone(v)
		}
		want = append(want, copied)
		if got := row[sCol]; len(got) != n {
			t.Fatalf("row %d: S of %d bytes, want %d", i, len(got), n)
		}
	}
	for i := range rows {
		for c := range rows[i].row {
			if rows[i].row[c] != want[i][c] {
				t.Fatalf("row %d column %d changed after later rows: %.20q, was %.20q", i, c, rows[i].row[c], want[i][c])
			}
		}
	}
}
