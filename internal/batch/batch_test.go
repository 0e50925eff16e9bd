package batch

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/engine"
)

// The columns of the test rows: key, value, _SDC_DELETED_AT (metadata),
// _SDC_BATCHED_AT (metadata).
const (
	colKey = iota
	colValue
	colDeleted
	colBatched
)

var (
	softShape = Shape{Keys: []int{colKey}, Meta: []int{colDeleted, colBatched}, Deleted: colDeleted}
	hardShape = Shape{Keys: []int{colKey}, Meta: []int{colDeleted, colBatched}, Deleted: colDeleted, HardDelete: true}
)

// rec is a test record "key=value" with line n, a delete when deleted is
// set; its kind comes from shape, as the pipeline's does.
func rec(shape *Shape, n int64, key, value, deleted string) engine.Row {
	vals := []string{key, value, deleted, fmt.Sprint("b", n)}
	return engine.Row{Kind: shape.Kind(vals), Line: n, Values: vals}
}

// show writes rows as "kind key=value deleted batched @line", one per row.
func show(rows []engine.Row) string {
	kinds := map[engine.RowKind]string{engine.RowUpsert: "U", engine.RowSoftDelete: "S", engine.RowHardDelete: "H"}
	var out []string
	for _, r := range rows {
		out = append(out, fmt.Sprintf("%s %s=%s %s %s @%d", kinds[r.Kind], r.Values[colKey], r.Values[colValue], r.Values[colDeleted], r.Values[colBatched], r.Line))
	}
	return strings.Join(out, "; ")
}

func TestKind(t *testing.T) {
	for _, tc := range []struct {
		name  string
		shape Shape
		vals  []string
		want  engine.RowKind
	}{
		{"no deleted column", Shape{Keys: []int{0}, Deleted: -1, HardDelete: true}, []string{"1"}, engine.RowUpsert},
		{"not deleted", hardShape, []string{"1", "v", "", ""}, engine.RowUpsert},
		{"soft delete", softShape, []string{"1", "v", "2025-01-01", ""}, engine.RowSoftDelete},
		{"hard delete", hardShape, []string{"1", "v", "2025-01-01", ""}, engine.RowHardDelete},
		{"hard_delete without a key: appended", Shape{Deleted: 0, HardDelete: true}, []string{"2025-01-01"}, engine.RowSoftDelete},
	} {
		if got := tc.shape.Kind(tc.vals); got != tc.want {
			t.Errorf("%s: kind %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestLess(t *testing.T) {
	for _, tc := range []struct {
		a, b []string
		keys []int
		want bool
	}{
		{[]string{"9"}, []string{"10"}, []int{0}, true}, // shorter first: integers sort as numbers
		{[]string{"10"}, []string{"9"}, []int{0}, false},
		{[]string{"ab"}, []string{"ac"}, []int{0}, true},
		{[]string{"ab"}, []string{"ab"}, []int{0}, false}, // equal: not less, so a repeat is seen
		{[]string{"x", "1", "b"}, []string{"y", "1", "a"}, []int{1, 2}, false},
		{[]string{"x", "1", "a"}, []string{"y", "1", "b"}, []int{1, 2}, true},
		{[]string{"x"}, []string{"y"}, nil, false},
	} {
		if got := Less(tc.a, tc.b, tc.keys); got != tc.want {
			t.Errorf("Less(%q, %q, %v) = %v, want %v", tc.a, tc.b, tc.keys, got, tc.want)
		}
	}
}

// Composite keys are told apart whatever bytes their values hold: no
// separator could be safe with NUL bytes in values.
func TestKey(t *testing.T) {
	var scratch []byte
	if got := Key([]string{"v", "a\x00b"}, []int{1}, &scratch); got != "a\x00b" {
		t.Errorf("one key column: %q, want the value itself", got)
	}
	keys := []int{0, 1}
	pairs := [][]string{{"a\x00", "b"}, {"a", "\x00b"}, {"a\x00b", ""}, {"", "a\x00b"}, {"ab", ""}, {"a", "b"}}
	seen := map[string][]string{}
	for _, p := range pairs {
		k := Key(p, keys, &scratch)
		if o, dup := seen[k]; dup {
			t.Errorf("keys %q and %q have the same identity %q", o, p, k)
		}
		seen[k] = p
		if again := Key(slices.Clone(p), keys, &scratch); again != k {
			t.Errorf("key %q: identity %q, then %q", p, k, again)
		}
	}
}

// Each case is a batch's records in input order and the rows they fold
// into, with what Add said of each record.
func TestFolder(t *testing.T) {
	type step struct {
		key, value, deleted string
		at                  int
		replaced            bool
	}
	for _, tc := range []struct {
		name  string
		shape *Shape
		steps []step
		want  string
	}{
		{"distinct keys keep input order", &softShape, []step{
			{"2", "a", "", 0, false}, {"1", "b", "", 1, false}, {"3", "c", "", 2, false}},
			"U 2=a  b1 @1; U 1=b  b2 @2; U 3=c  b3 @3"},
		{"the last upsert wins, in the first one's place", &softShape, []step{
			{"1", "a", "", 0, false}, {"2", "b", "", 1, false}, {"1", "c", "", 0, true}},
			"U 1=c  b3 @3; U 2=b  b2 @2"},
		{"a soft delete keeps the values and takes the metadata", &softShape, []step{
			{"1", "a", "", 0, false}, {"1", "", "2025-01-01", 0, false}},
			"U 1=a 2025-01-01 b2 @2"},
		{"a soft delete of a soft delete", &softShape, []step{
			{"1", "a", "2025-01-01", 0, false}, {"1", "", "2025-02-02", 0, false}},
			"S 1=a 2025-02-02 b2 @2"},
		{"an upsert after a soft delete replaces it", &softShape, []step{
			{"1", "a", "2025-01-01", 0, false}, {"1", "b", "", 0, true}},
			"U 1=b  b2 @2"},
		{"a hard delete replaces an upsert", &hardShape, []step{
			{"1", "a", "", 0, false}, {"1", "", "2025-01-01", 0, true}},
			"H 1= 2025-01-01 b2 @2"},
		{"an upsert after a hard delete", &hardShape, []step{
			{"1", "", "2025-01-01", 0, false}, {"1", "b", "", 0, true}},
			"U 1=b  b2 @2"},
		{"a soft delete after two upserts keeps the last values", &softShape, []step{
			{"1", "a", "", 0, false}, {"1", "b", "", 0, true}, {"1", "c", "2025-01-01", 0, false}},
			"U 1=b 2025-01-01 b3 @3"},
	} {
		for _, keep := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/keepValues=%v", tc.name, keep), func(t *testing.T) {
				f := NewFolder(tc.shape, nil, keep)
				var rows []engine.Row
				var read [][]string // every record's values, and a copy of them as read
				for i, s := range tc.steps {
					r := rec(tc.shape, int64(i+1), s.key, s.value, s.deleted)
					read = append(read, r.Values, slices.Clone(r.Values))
					var at int
					var replaced bool
					rows, at, replaced = f.Add(rows, r)
					if at != s.at || replaced != s.replaced {
						t.Errorf("record %d: at %d replaced %v, want at %d replaced %v", i+1, at, replaced, s.at, s.replaced)
					}
				}
				if got := show(rows); got != tc.want {
					t.Errorf("rows\n %s\nwant\n %s", got, tc.want)
				}
				for i := 0; keep && i < len(read); i += 2 {
					if !slices.Equal(read[i], read[i+1]) {
						t.Errorf("keepValues: record %d's values changed from %q to %q", i/2+1, read[i+1], read[i])
					}
				}
			})
		}
	}
}

// The hard-delete case needs hard_delete on; with it off the same delete
// is a soft one and keeps the values before it.
func TestFolderSoftAfterHardDelete(t *testing.T) {
	f := NewFolder(&hardShape, nil, false)
	rows, _, _ := f.Add(nil, rec(&hardShape, 1, "1", "", "2025-01-01"))
	soft := rec(&softShape, 2, "1", "c", "2025-01-02") // a soft delete reaching a hard-deleted key
	rows, at, replaced := f.Add(rows, soft)
	if got, want := show(rows), "U 1=c 2025-01-02 b2 @2"; got != want || at != 0 || !replaced {
		t.Errorf("rows %s at %d replaced %v, want %s at 0 replaced true", got, at, replaced, want)
	}
}

// An append-only batch with hard deletes becomes the deletes, then the
// inserts that follow the last delete of their key, in input order.
func TestAppendSteps(t *testing.T) {
	for _, tc := range []struct {
		name    string
		records [][3]string // key, value, deleted
		deletes string
		inserts string
	}{
		{"no hard delete: one step, as it is", [][3]string{{"1", "a", ""}, {"1", "b", ""}},
			"", "U 1=a  b1 @1; U 1=b  b2 @2"},
		{"rows before the key's last delete go", [][3]string{
			{"1", "a", ""}, {"1", "b", ""}, {"2", "c", ""}, {"1", "", "d1"}, {"1", "d", ""}, {"2", "e", ""},
			{"3", "", "d2"}, {"3", "", "d3"}, {"3", "g", ""}},
			"H 1= d1 b4 @4; H 3= d3 b8 @8",
			"U 2=c  b3 @3; U 1=d  b5 @5; U 2=e  b6 @6; U 3=g  b9 @9"},
		{"a delete at the end", [][3]string{{"1", "a", ""}, {"1", "", "d1"}},
			"H 1= d1 b2 @2", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &engine.Write{Method: engine.Insert, Columns: []string{"K", "V", "D", "B"}, KeyColumns: []string{"K"}}
			for i, r := range tc.records {
				w.Rows = append(w.Rows, rec(&hardShape, int64(i+1), r[0], r[1], r[2]))
			}
			steps := AppendSteps(w)
			var del, ins string
			switch len(steps) {
			case 1:
				ins = show(steps[0].(*engine.Write).Rows)
			case 2:
				del, ins = show(steps[0].(*engine.Write).Rows), show(steps[1].(*engine.Write).Rows)
			default:
				t.Fatalf("%d steps", len(steps))
			}
			if del != tc.deletes || ins != tc.inserts {
				t.Errorf("deletes %q\n want %q\ninserts %q\n want %q", del, tc.deletes, ins, tc.inserts)
			}
			if len(steps) == 2 && steps[1] != engine.Step(w) {
				t.Error("the inserts are not the Write itself")
			}
		})
	}
}

func TestRuns(t *testing.T) {
	w := &engine.Write{Method: engine.Insert, Columns: []string{"K", "V", "D", "B"}, KeyColumns: []string{"K"}}
	for i, r := range [][3]string{{"1", "a", ""}, {"2", "b", ""}, {"1", "", "d"}, {"2", "", "d"}, {"1", "c", ""}} {
		w.Rows = append(w.Rows, rec(&hardShape, int64(i+1), r[0], r[1], r[2]))
	}
	var got []string
	for _, s := range Runs(w) {
		got = append(got, show(s.(*engine.Write).Rows))
	}
	want := []string{"U 1=a  b1 @1; U 2=b  b2 @2", "H 1= d b3 @3; H 2= d b4 @4", "U 1=c  b5 @5"}
	if !slices.Equal(got, want) {
		t.Errorf("runs\n %q\nwant\n %q", got, want)
	}
	if len(w.Rows) != 5 {
		t.Errorf("the Write kept %d rows, want its 5", len(w.Rows))
	}
}

// Chunk k holds 4<<k rows while that is below Rows, then Rows each.
func TestChunks(t *testing.T) {
	for _, tc := range []struct {
		rows  int   // Chunks.Rows
		sizes []int // the first chunks' sizes
		at    map[int][2]int
	}{
		{1, []int{1, 1, 1}, map[int][2]int{0: {0, 0}, 1: {1, 0}, 7: {7, 0}}},
		{4, []int{4, 4, 4}, map[int][2]int{0: {0, 0}, 3: {0, 3}, 4: {1, 0}, 9: {2, 1}}},
		{5, []int{4, 5, 5}, map[int][2]int{3: {0, 3}, 4: {1, 0}, 8: {1, 4}, 9: {2, 0}}},
		{16, []int{4, 8, 16, 16}, map[int][2]int{0: {0, 0}, 4: {1, 0}, 11: {1, 7}, 12: {2, 0}, 27: {2, 15}, 28: {3, 0}}},
		{68, []int{4, 8, 16, 32, 64, 68, 68}, map[int][2]int{59: {3, 31}, 60: {4, 0}, 123: {4, 63}, 124: {5, 0}, 191: {5, 67}, 192: {6, 0}}},
	} {
		c := Chunks{Rows: tc.rows}
		for k, want := range tc.sizes {
			if got := c.Size(k); got != want {
				t.Errorf("Rows %d: chunk %d holds %d rows, want %d", tc.rows, k, got, want)
			}
		}
		for i, want := range tc.at {
			if k, j := c.Of(i); [2]int{k, j} != want {
				t.Errorf("Rows %d: row %d is in chunk %d at %d, want %v", tc.rows, i, k, j, want)
			}
		}
		// Rows fill chunk after chunk, each from its start.
		next := [2]int{0, 0}
		for i := 0; i < 500; i++ {
			k, j := c.Of(i)
			if [2]int{k, j} != next {
				t.Fatalf("Rows %d: row %d is in chunk %d at %d, want %v", tc.rows, i, k, j, next)
			}
			if next[1]++; next[1] == c.Size(k) {
				next = [2]int{k + 1, 0}
			}
		}
	}
}
