package sim

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"github.com/target-oracle/target-oracle/internal/table"
)

// load_method history in the simulation. A history table's current
// versions are what an upsert table with hard deletes holds: the last
// record per key, a delete (soft or hard) closes the key's current
// version, an ACTIVATE_VERSION closes the current versions of older table
// versions. So the model keeps that view, the checks compare the current
// versions (valid-to NULL) with it, and checkHistory holds the versions
// themselves: per key, valid-froms increase, every version but the last is
// closed, a closed version's valid-to is not before its valid-from, and no
// version equals the one it follows (a replay may repeat intermediate
// changes, never an unchanged record).

// History is load_method history (slowly changing dimension, type 2).
const History Method = "history"

// historyStreams turns about one in four keyed upsert streams into
// history streams (none under truncate_before_load: a configuration
// error), from a generator of its own, so that every other draw stays as
// it was: a seed without history streams keeps its scenario.
func historyStreams(seed uint64, sc *Scenario) {
	if sc.Truncate || Avoid["history"] {
		return
	}
	r := rand.New(rand.NewPCG(seed^0x68697374, seed+0x6f7279))
	for i := range sc.Streams {
		if st := &sc.Streams[i]; st.Method == Upsert && !st.Keyless && r.IntN(4) == 0 {
			st.Method = History
		}
	}
}

// closesOnDelete reports whether a delete removes the stream's row from
// the compared view: hard_delete, or a history stream (its delete closes
// the current version).
func closesOnDelete(st *StreamSpec) bool { return st.Hard || st.Method == History }

// closedVersion reports whether a stored row is a closed version of a
// history stream, which the compared view leaves out.
func closedVersion(sc *Scenario, stream string, r map[string]string) bool {
	return sc.stream(stream).Method == History && r[table.MetaValidTo] != ""
}

// checkHistory holds the versions of every history table.
func (t *trial) checkHistory(db database, where string) {
	for _, st := range t.sc.Streams {
		if st.Method != History || t.final.tables[st.Name] == nil {
			continue
		}
		keys := t.final.tables[st.Name].keys
		byKey := map[string][]map[string]string{}
		for _, r := range db.rows("DRY_RUN." + strings.ToUpper(st.Name)) {
			id := identity(keys, row(r))
			byKey[id] = append(byKey[id], r)
		}
		for id, vs := range byKey {
			if err := versionsHold(vs); err != nil {
				t.res.failf("%s: stream %s key %s: %v", where, st.Name, id, err)
			}
		}
	}
}

func versionsHold(vs []map[string]string) error {
	at := func(s string) time.Time {
		x, _ := time.Parse(time.RFC3339Nano, s)
		return x
	}
	sort.Slice(vs, func(i, j int) bool { return at(vs[i][table.MetaValidFrom]).Before(at(vs[j][table.MetaValidFrom])) })
	for i, v := range vs {
		from, to, cur := v[table.MetaValidFrom], v[table.MetaValidTo], v[table.MetaIsCurrent]
		switch {
		case from == "":
			return fmt.Errorf("version %d has no valid-from", i)
		case i > 0 && !at(from).After(at(vs[i-1][table.MetaValidFrom])):
			return fmt.Errorf("valid-froms %s and %s do not increase", vs[i-1][table.MetaValidFrom], from)
		case i < len(vs)-1 && to == "":
			return fmt.Errorf("version from %s is current but not the last", from)
		case (to == "") != (cur == "1" || cur == "true"):
			return fmt.Errorf("version from %s: valid-to %q and is-current %q disagree", from, to, cur)
		case to != "" && at(to).Before(at(from)):
			return fmt.Errorf("version from %s ends before it starts (%s)", from, to)
		case i > 0 && vs[i-1][table.MetaValidTo] == from && vs[i-1][table.MetaRowHash] == v[table.MetaRowHash]:
			return fmt.Errorf("version from %s equals the one before it (hash %s)", from, v[table.MetaRowHash])
		}
	}
	return nil
}
