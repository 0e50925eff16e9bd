package sim

import (
	"math/rand/v2"
	"testing"
)

// The faults injected into the fake server are ones an Oracle server can
// produce: a call takes effect and then fails only when its reply is lost
// (a lost connection, ORA-03113). An applied COMMIT reported as ORA-00054
// made seed 707 of the 10,000 find "duplicates" in an append-only table
// that the loader rightly retried (SPEC §6.3: a server error is a rollback).
func TestFakeFaultsAreFaultsOracleMakes(t *testing.T) {
	applied := map[int]int{}
	for seed := uint64(1); seed <= 3000; seed++ {
		tr := &trial{sc: &Scenario{Fail: -1}, r: rand.New(rand.NewPCG(seed, 1))}
		f := tr.injectFake(newFakeDB(), 0)
		if f == nil || !f.f.Applied {
			continue
		}
		applied[f.f.Code]++
		if c := f.f.Code; c != 0 && c != 3113 {
			t.Fatalf("seed %d: fault %s: applied with an error the server answered", seed, f)
		}
	}
	if applied[0] == 0 || applied[3113] == 0 {
		t.Fatalf("applied faults by code %v: want lost connections of both kinds", applied)
	}
}
