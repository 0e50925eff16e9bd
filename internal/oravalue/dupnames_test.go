package oravalue

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestDuplicateName(t *testing.T) {
	for doc, want := range map[string][]string{
		`{"a":1,"b":2}`:                       nil,
		`{"a":1,"a":2}`:                       {"a"},
		`{"a":{"b":1},"c":{"b":2}}`:           nil,
		`{"o":{"k":"x","k":"y"}}`:             {"o", "k"},
		`[{"a":1},{"a":1,"a":1}]`:             {"1", "a"},
		`{"\u0061":1,"a":2}`:                  {"a"},
		` { "a" : [ 1 , { "x":1 } ] , "b":0}`: nil,
		`{"a":"}","a":"{"}`:                   {"a"},
		`"x"`:                                 nil,
		`{"a":1,`:                             nil,
		`{"a`:                                 nil,
		`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17,"k3":3}`: {"k3"},
	} {
		if got := DuplicateName(doc); !slices.Equal(got, want) {
			t.Errorf("DuplicateName(%s) = %q, want %q", doc, got, want)
		}
		if got := DuplicateName([]byte(doc)); !slices.Equal(got, want) {
			t.Errorf("DuplicateName([]byte %s) = %q, want %q", doc, got, want)
		}
	}
}

// TestMayRepeatNameNeverMissesARepeat holds the fast path to the exact
// scan over seeded random documents built to repeat names often (a
// two-letter alphabet, escapes, nesting, arrays, white space, cut text):
// whenever the exact scan finds a repeat, the fast path must defer to it,
// so DuplicateName always answers as the exact scan does.
func TestMayRepeatNameNeverMissesARepeat(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 18))
	repeats := 0
	for n := 0; n < 200000; n++ {
		doc := randomDoc(rng, 0)
		if rng.IntN(8) == 0 && len(doc) > 0 {
			doc = doc[:rng.IntN(len(doc))] // text that does not parse
		}
		exact := exactDuplicateName(doc)
		if !json.Valid([]byte(doc)) {
			DuplicateName(doc) // no answer is due, only no panic
			continue
		}
		if exact != nil {
			repeats++
			if !mayRepeatName(doc) || !mayRepeatName([]byte(doc)) {
				t.Fatalf("mayRepeatName(%s) = false; the exact scan finds %q", doc, exact)
			}
		}
		if got := DuplicateName(doc); !slices.Equal(got, exact) {
			t.Fatalf("DuplicateName(%s) = %q, exact scan %q", doc, got, exact)
		}
	}
	if repeats < 10000 {
		t.Fatalf("only %d of the documents repeat a name: the generator does not exercise the check", repeats)
	}
}

// TestMayRepeatNameSettlesPlainDocuments: the fast path must settle the
// documents records carry, or it saves nothing.
func TestMayRepeatNameSettlesPlainDocuments(t *testing.T) {
	for _, doc := range []string{
		`{"street":"847 Golf Street","city":"Charlie","zip":"74115"}`,
		`["foxtrot","charlie","golf"]`,
		`[{"a":1,"b":[{"a":2}]},{"a":3,"b":null}]`,
		` { "a" : "{\"a\":1,\"a\":2}" , "b" : 0 } `,
		`{"a":{"a":{"a":{}}},"b":{"a":1}}`,
	} {
		if mayRepeatName(doc) {
			t.Errorf("mayRepeatName(%s) = true, want false", doc)
		}
	}
}

func randomDoc(rng *rand.Rand, depth int) string {
	ws := func() string { return [...]string{"", "", "", " ", "\n "}[rng.IntN(5)] }
	switch k := rng.IntN(10); {
	case depth > 4 || k < 3:
		return [...]string{`1`, `"a"`, `null`, `"{\"a\":1}"`, `-2.5e3`, `"}"`}[rng.IntN(6)]
	case k < 5:
		var b strings.Builder
		b.WriteString("[" + ws())
		for i := range rng.IntN(4) {
			if i > 0 {
				b.WriteString("," + ws())
			}
			b.WriteString(randomDoc(rng, depth+1))
		}
		return b.String() + ws() + "]"
	default:
		var b strings.Builder
		b.WriteString("{" + ws())
		members := rng.IntN(5)
		if rng.IntN(20) == 0 {
			members = 15 + rng.IntN(5) // around the fast path's per-object bound
		}
		for i := range members {
			if i > 0 {
				b.WriteString("," + ws())
			}
			name := [...]string{`"a"`, `"b"`, `"ab"`, `"\u0061"`, `"a\"b"`, `""`}[rng.IntN(6)]
			if members > 6 {
				name = `"k` + strconv.Itoa(rng.IntN(40)) + `"`
			}
			b.WriteString(name + ws() + ":" + ws() + randomDoc(rng, depth+1))
		}
		return b.String() + ws() + "}"
	}
}

// FuzzMayRepeatName: on any JSON text, a repeat the exact scan finds is
// never settled away by the fast path. (On text that does not parse the
// two may read different members; DuplicateName's answer is for JSON.)
func FuzzMayRepeatName(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, `{"\u0061":1,"a":2}`, `[{"a":{"b":1,"b":2}}]`, `{"a":"}","a":"{"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		if json.Valid([]byte(doc)) && exactDuplicateName(doc) != nil && !mayRepeatName(doc) {
			t.Fatalf("mayRepeatName(%q) = false; the exact scan finds %q", doc, exactDuplicateName(doc))
		}
	})
}
