package oravalue

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// keptColumns are the column shapes the fast path is held to: every kind,
// the limits at and around the values below, semantics and national text,
// the 0/1 check, odd precisions and scales.
var keptColumns = []Column{
	{Kind: KindVarchar, Length: 1}, {Kind: KindVarchar, Length: 4}, {Kind: KindVarchar, Length: 4, CharSemantics: true},
	{Kind: KindVarchar, Length: 3, National: true}, {Kind: KindVarchar, Length: 4000}, {Kind: KindVarchar, Length: 4000, Nullable: true},
	{Kind: KindClob}, {Kind: KindClob, National: true},
	{Kind: KindNumber}, {Kind: KindNumber, Nullable: true}, {Kind: KindNumber, Precision: 38}, {Kind: KindNumber, Precision: 3},
	{Kind: KindNumber, Precision: 5, Scale: 2}, {Kind: KindNumber, Precision: 2, Scale: 2}, {Kind: KindNumber, Precision: 2, Scale: 5},
	{Kind: KindNumber, Precision: 5, Scale: -2}, {Kind: KindNumber, Precision: 1, BoolNumber: true}, {Kind: KindNumber, Scale: -1},
	{Kind: KindBoolean}, {Kind: KindDate},
	{Kind: KindTimestamp, Frac: 0}, {Kind: KindTimestamp, Frac: 3}, {Kind: KindTimestamp, Frac: 6, TZ: true}, {Kind: KindTimestamp, Frac: 9},
	{Kind: KindJSON}, {Kind: KindJSON, JSONAsClob: true}, {Kind: KindRaw, Length: 4}, {Kind: KindBlob},
	{Kind: KindVector, VectorFormat: VectorFloat32}, {Kind: KindVector, Dim: 2, VectorFormat: VectorInt8},
}

// keptValues are values in and just outside the fast path's shapes.
var keptValues = []string{
	"", "0", "-0", "1", "-1", "7", "00", "01", "-01", "10", "123", "-123", "1234", "99999", "100000", "-", "+1", "1.", ".5", "0.5",
	"1.50", "1.5", "12.34", "-12.345", "1e5", "12a", " 1", "1" + strings.Repeat("0", 37), "1" + strings.Repeat("0", 125),
	"1" + strings.Repeat("0", 126), "true", "false", "TRUE", "t", "yes", "null",
	"a", "ab", "abcd", "abcde", "é", "éé", "ééé", "😀", "😀😀", "日本語", "\x00", "\xff\xfe",
	"2024-02-29", "2024-02-29T00:00:00Z", "2024-02-29T12:34:56.1Z", "2024-02-29T12:34:56.123Z", "2024-02-29T12:34:56.1234Z",
	"2024-02-29T12:34:56.123456Z", "2024-02-29T12:34:56.123456789Z", "2024-02-29T12:34:56.1234567891Z", "2024-02-29T12:34:56.10Z",
	"2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-00-10T00:00:00Z", "2024-01-01T24:00:00Z", "0000-01-01T00:00:00Z",
	"2024-01-01 00:00:00Z", "2024-01-01T00:00:00+00:00", "2024-01-01T00:00:00",
	`{}`, `{"a":1}`, `[]`, `[1,2]`, `"s"`, `{`, `[1`, `{"a":1]`, "AQID", "AQIDBA==", "AQIDBAU=", "[1,2]", "[1.5,2]", "[300,1]",
	`{"a":1.0}`, `{"a":1e2}`, `[-0]`, `{"a":"1.0"}`, `{"a\"":1.50}`, `[0.00001]`, "[1" + strings.Repeat("0", 38) + "]",
	"[0." + strings.Repeat("0", 129) + "1]", "[0." + strings.Repeat("0", 130) + "1]", "[1" + strings.Repeat("1", 38) + "]",
}

// TestKeptAgreesWithAssign holds the fast path to the full rule: whenever
// Kept reports a value kept, Assign keeps it too, unchanged and without
// error; and the loader's common values do take the fast path.
func TestKeptAgreesWithAssign(t *testing.T) {
	for i := range keptColumns {
		c := &keptColumns[i]
		for _, v := range keptValues {
			checkKept(t, c, v)
		}
	}
	for _, r := range benchRow {
		if !r.c.Kept(r.v) {
			t.Errorf("the benchmark value %q of %+v misses the fast path", r.v, r.c)
		}
	}
}

// TestKeptGenerated compares the fast path and the full rule on random
// values built from the bytes the shapes are made of.
func TestKeptGenerated(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	const alphabet = "0123456789-+.eE:TZ \"{}[]aé😀"
	pieces := []string{"2024-02-29T", "12:34:56", ".123", "Z", "0", "9", "-", "."}
	kept := 0
	for n := 0; n < 200000; n++ {
		var b strings.Builder
		for k := rnd.IntN(12); k > 0; k-- {
			if rnd.IntN(3) == 0 {
				b.WriteString(pieces[rnd.IntN(len(pieces))])
			} else {
				r := []rune(alphabet)
				b.WriteRune(r[rnd.IntN(len(r))])
			}
		}
		c := keptColumns[rnd.IntN(len(keptColumns))]
		c.Precision, c.Scale = c.Precision+rnd.IntN(3)-1, c.Scale+rnd.IntN(3)-1
		if c.Precision < 0 {
			c.Precision = 0
		}
		if checkKept(t, &c, b.String()) {
			kept++
		}
	}
	if kept < 1000 {
		t.Fatalf("only %d of the generated values took the fast path: the comparison says little", kept)
	}
}

// FuzzKept is TestKeptGenerated under the fuzzer.
func FuzzKept(f *testing.F) {
	for i := range keptColumns {
		for _, v := range keptValues[:20] {
			f.Add(uint8(i), int16(keptColumns[i].Precision), int16(keptColumns[i].Scale), int16(keptColumns[i].Length), v)
		}
	}
	f.Fuzz(func(t *testing.T, col uint8, precision, scale, length int16, v string) {
		c := keptColumns[int(col)%len(keptColumns)]
		c.Precision, c.Scale, c.Length = max(0, int(precision)), int(scale), int(length)
		checkKept(t, &c, v)
	})
}

// checkKept fails the test when Kept(v) and Assign disagree, and reports
// whether v took the fast path.
func checkKept(t *testing.T, c *Column, v string) bool {
	t.Helper()
	if !c.Kept(v) {
		return false
	}
	if got, err := c.Assign(v); err != nil || got != v {
		t.Fatalf("column %+v: Kept(%q) but Assign gives %q, %v", *c, v, got, err)
	}
	return true
}

// TestKeeperAcrossValues holds one Keeper, asked about a column's values
// in turn as the embedded engine asks (it remembers the last date-time it
// kept), one by one and by KeptPrefix, to the column's Kept of each value
// alone.
func TestKeeperAcrossValues(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	for i := range keptColumns {
		for _, nullable := range []bool{false, true} {
			c := keptColumns[i]
			c.Nullable = nullable
			k := c.Keeper()
			for n := 0; n < 5000; n++ {
				v := keptValues[rnd.IntN(len(keptValues))]
				if got, want := k.Kept(v), c.Kept(v); got != want {
					t.Fatalf("column %+v: the Keeper says %v for %q after other values, Kept alone %v", c, got, v, want)
				}
			}
			for n := 0; n < 2000; n++ {
				// Runs of values Kept keeps, the same value repeated
				// (the same string, as a batch's metadata), then any.
				var vs []string
				for m := rnd.IntN(8); m > 0; m-- {
					v := keptValues[rnd.IntN(len(keptValues))]
					for r := 1 + rnd.IntN(3); r > 0 && c.Kept(v); r-- {
						vs = append(vs, v)
					}
				}
				vs = append(vs, keptValues[rnd.IntN(len(keptValues))])
				want := len(vs)
				for j, v := range vs {
					if !c.Kept(v) {
						want = j
						break
					}
				}
				if got := k.KeptPrefix(vs); got != want {
					t.Fatalf("column %+v: KeptPrefix(%q) = %d, Kept of each value says %d", c, vs, got, want)
				}
			}
		}
	}
}
