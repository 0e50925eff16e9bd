package tablemap

import (
	"errors"
	"testing"

	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/table"
)

// Layouts sharing one RowState, rows built in turn (as the pipeline's
// coordinator builds them): no layout sees another's spans, stats or held
// conversion errors, whichever is wider.
func TestSharedRowStateKeepsRowsApart(t *testing.T) {
	wide := tree(p("k", str), p("a", str|nl), p("d", str|nl, format("date-time")), p("c", str|nl), p("n", in|nl), p("ts", str|nl, format("date-time")))
	narrow := tree(p("k", str), p("n", in|nl), p("ts", str|nl, format("date-time")))
	opts := table.Options{IdentifierUpper: true}
	var rs RowState
	w, err := NewLayout("w", wide, []string{"k"}, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	n, err := NewLayout("n", narrow, []string{"k"}, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if w.Table().ColumnIndex("D") != n.Table().ColumnIndex("TS") {
		t.Fatalf("columns D of w (%d) and TS of n (%d) must have one index", w.Table().ColumnIndex("D"), n.Table().ColumnIndex("TS"))
	}
	w.ShareRowState(&rs)
	n.ShareRowState(&rs)
	type step struct {
		l        *Layout
		record   string
		property string            // the input error wanted, "" for none
		want     map[string]string // column values wanted
		stats    map[string]int    // MaxBytes wanted after the row
	}
	ws, ns := make([]table.Stats, w.Columns()), make([]table.Stats, n.Columns())
	steps := []step{
		// The wide layout holds errors, one on a column past the narrow
		// one's last, one where the narrow one has its TS.
		{l: w, record: `{"k":"w1","a":"xx","ts":"never","d":"never"}`, property: "ts"},
		// The narrow one builds a clean row: the error held above is not its.
		{l: n, record: `{"k":"n1","n":7}`, want: map[string]string{"K": "n1", "N": "7", "TS": ""}},
		// and its own error, on the column the wide one's error sat at,
		// is reported, not lost.
		{l: n, record: `{"k":"n2","ts":"yesterday"}`, property: "ts"},
		{l: w, record: `{"k":"w2","c":"cccc"}`, want: map[string]string{"K": "w2", "A": "", "D": "", "C": "cccc", "TS": ""}, stats: map[string]int{"C": 4, "A": 0}},
		// An error the wide layout holds and then settles (a later
		// duplicate key) leaves nothing for the next row.
		{l: w, record: `{"k":"w3","ts":"bad","ts":"2024-01-02T03:04:05Z"}`, want: map[string]string{"K": "w3", "TS": "2024-01-02T03:04:05Z"}},
		{l: n, record: `{"k":"n3","n":"x"}`, property: "n"},
		{l: w, record: `{"k":"w4","a":"aaaaaa"}`, want: map[string]string{"K": "w4", "A": "aaaaaa", "C": ""}, stats: map[string]int{"A": 6, "C": 4}},
		{l: n, record: `{"k":"n4"}`, want: map[string]string{"K": "n4", "N": "", "TS": ""}},
		// The wide layout's error on a column past the narrow one's last,
		// after rows of the narrow one, is reported too.
		{l: w, record: `{"k":"w1","ts":"never"}`, property: "ts"},
		{l: n, record: `{"k":"n5","ts":"never"}`, property: "ts"},
		{l: w, record: `{"k":"w5","ts":"bad"}`, property: "ts"},
	}
	for i, st := range steps {
		stats := ws
		if st.l == n {
			stats = ns
		}
		row := make([]string, st.l.Columns())
		err := st.l.Row([]byte(st.record), nil, row, stats, nil)
		if st.property != "" {
			var ie *inputerr.Error
			if !errors.As(err, &ie) || ie.Property != st.property {
				t.Fatalf("step %d (%s): err = %v, want an input error on %q", i, st.record, err, st.property)
			}
			continue
		}
		if err != nil {
			t.Fatalf("step %d (%s): %v", i, st.record, err)
		}
		for name, want := range st.want {
			if got := at(row, st.l.Table().ColumnIndex(name)); got != want {
				t.Errorf("step %d (%s): %s = %q, want %q", i, st.record, name, got, want)
			}
		}
		for name, want := range st.stats {
			if got := stats[st.l.Table().ColumnIndex(name)].MaxBytes; got != want {
				t.Errorf("step %d: %s MaxBytes = %d, want %d", i, name, got, want)
			}
		}
	}
}
