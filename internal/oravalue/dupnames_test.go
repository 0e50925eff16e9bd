package oravalue

import (
	"slices"
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
