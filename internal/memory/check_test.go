package memory

import (
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/table"
)

func TestNumberShape(t *testing.T) {
	for _, c := range []struct {
		v             string
		digits, scale int
		ok            bool
	}{
		{"0", 0, 0, true}, {"-0.5", 0, 1, true}, {"123", 3, 0, true}, {"-12.340", 2, 3, true},
		{"1.", 1, 0, true}, {".5", 0, 1, true}, {"", 0, 0, false}, {"-", 0, 0, false},
		{"1.2.3", 0, 0, false}, {"1e5", 0, 0, false}, {"+1", 0, 0, false}, {"12a", 0, 0, false},
	} {
		d, s, ok := numberShape(c.v)
		if ok != c.ok || ok && (d != c.digits || s != c.scale) {
			t.Errorf("numberShape(%q) = %d, %d, %v; want %d, %d, %v", c.v, d, s, ok, c.digits, c.scale, c.ok)
		}
	}
}

// Values are checked column by column, yet the error is the one a row by
// row check gives: the first failing row, and in it the first column.
func TestWriteReportsFirstFailingRow(t *testing.T) {
	def := &table.Table{Name: "T", Columns: []table.Column{
		{Name: "A", Type: table.Type{Kind: table.KindVarchar, Length: 3}, Nullable: true},
		{Name: "B", Type: table.Type{Kind: table.KindNumber, Precision: 3}, Nullable: true},
		{Name: "C", Type: table.Type{Kind: table.KindVarchar, Length: 3, CharSemantics: true}, Nullable: false},
	}}
	w := &engine.Write{Table: def, Method: engine.Insert, Columns: []string{"A", "B", "C"}, Rows: []engine.Row{
		{Line: 10, Values: []string{"ok", "1", "ééé"}}, // 6 bytes, 3 characters: fits
		{Line: 11, Values: []string{"ok", "1234", "x"}},
		{Line: 12, Values: []string{"long", "1", "x"}},
	}}
	mt := &memTable{def: def, byKey: map[string]int{}}
	_, err := mt.write(w, "")
	if err == nil || !strings.Contains(err.Error(), "input line 11") || !strings.Contains(err.Error(), "ORA-01438") {
		t.Fatalf("got %v, want ORA-01438 at input line 11", err)
	}
	w.Rows[1].Values[2] = ""
	if _, err = mt.write(w, ""); err == nil || !strings.Contains(err.Error(), "input line 11") || !strings.Contains(err.Error(), "ORA-01438") {
		t.Fatalf("got %v, want ORA-01438 (column B before C) at input line 11", err)
	}
	w.Rows[1].Values[1] = "1"
	if _, err = mt.write(w, ""); err == nil || !strings.Contains(err.Error(), "input line 11") || !strings.Contains(err.Error(), "ORA-01400") {
		t.Fatalf("got %v, want ORA-01400 at input line 11", err)
	}
	w.Rows[1].Values[2] = "x"
	if _, err = mt.write(w, ""); err == nil || !strings.Contains(err.Error(), "input line 12") || !strings.Contains(err.Error(), "ORA-12899") {
		t.Fatalf("got %v, want ORA-12899 at input line 12", err)
	}
}
