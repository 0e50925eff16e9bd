// Package sim is the seeded simulation of the state contract (SPEC §7,
// §12): from a seed it generates a multi-stream Singer input and a plan of
// crashes, faults and signals chosen by event count, runs the target on the
// embedded engine, resumes from the last STATE written as an orchestrator
// would, and checks two things against a reference model of the tables: no
// STATE was ever written ahead of committed data, and the final tables are
// what the input says they must be.
//
// A seed fixes the input, the settings and the kill points, and (in
// process, inside a synctest bubble) the interleaving: a seeded scheduler
// (sched.go) orders the workers' engine calls and the state writes, so a
// seed replays identically alone or beside others. The process a subprocess
// trial starts is not scheduled: with max_parallelism > 1 it may take
// another interleaving when replayed; the checks hold for every one.
package sim

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
)

// Method is a stream's load method in a scenario.
type Method string

const (
	Upsert    Method = "upsert"
	Append    Method = "append-only"
	Overwrite Method = "overwrite"
)

// StreamSpec is one stream of a scenario.
type StreamSpec struct {
	Name      string
	Method    Method
	Keyless   bool // no key_properties: upsert appends
	Hard      bool // hard_delete
	Versioned bool // records carry a table version; ACTIVATE_VERSION comes

	Prune string // delete_missing: "", soft or hard (prune.go)
}

// Schema is what a SCHEMA message declares (the parts the model needs).
type Schema struct {
	Keys    []string // "id" or "id","k2"
	VMax    int      // maxLength of v
	NNumber bool     // n is a number (else an integer)
}

// Rec is one RECORD's content.
type Rec struct {
	ID, K2, Q int
	V         *string
	N         string // number text, "" for null
	Deleted   string // _sdc_deleted_at, "" for none
	Version   int64  // 0: no version
}

// Msg is one input message.
type Msg struct {
	Kind    string // SCHEMA, RECORD, STATE, ACTIVATE_VERSION
	Stream  string
	Schema  *Schema
	Rec     *Rec
	Version int64 // ACTIVATE_VERSION
	Text    string
}

// Scenario is a generated trial input.
type Scenario struct {
	Seed     uint64
	Streams  []StreamSpec
	Settings map[string]any
	Msgs     []Msg
	Truncate bool // truncate_before_load
	// Fail is the index of the message that must fail the run (a SCHEMA
	// refused by schema_evolution: fail, or a key change on a table with
	// rows), -1 when the input is valid.
	Fail int
}

func (s *Scenario) stream(name string) *StreamSpec {
	for i := range s.Streams {
		if s.Streams[i].Name == name {
			return &s.Streams[i]
		}
	}
	return nil
}

// resets reports whether the stream's table is emptied by the first flush
// of each run (overwrite, truncate_before_load).
func (s *Scenario) resets(name string) bool {
	return s.Truncate || s.stream(name).Method == Overwrite
}

func (s *Scenario) anyReset() bool {
	for _, st := range s.Streams {
		if s.resets(st.Name) {
			return true
		}
	}
	return false
}

// Input renders the messages as Singer lines.
func Input(msgs []Msg) string {
	var b strings.Builder
	for _, m := range msgs {
		b.WriteString(m.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// Avoid turns off parts of the generator, so that a run over many seeds
// can look past a known bug: "append-hard" (append-only streams with
// hard_delete), "truncate", "failing" (inputs that must fail), "parallel"
// (max_parallelism 1 only). The test flag -avoid sets it; a seed's input
// depends on it.
var Avoid = map[string]bool{}

// Generate builds the scenario of a seed.
func Generate(seed uint64) *Scenario {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	sc := &Scenario{Seed: seed, Fail: -1}
	sc.Truncate = r.IntN(10) == 0 && !Avoid["truncate"]
	failKind := ""
	switch x := r.IntN(12); {
	case Avoid["failing"]:
	case x == 0:
		failKind = "evolution" // schema_evolution: fail and a widening
	case x == 1:
		failKind = "key" // a key change on a table with rows
	}
	keyChange := failKind == "" && r.IntN(10) == 0
	n := 1 + r.IntN(3)
	for i := 0; i < n; i++ {
		st := StreamSpec{Name: fmt.Sprintf("s%d", i)}
		switch x := r.IntN(10); {
		case x < 6:
			st.Method = Upsert
		case x < 8:
			st.Method = Append
		case x < 9:
			st.Method = Overwrite
		default:
			st.Method, st.Keyless = Upsert, true
		}
		st.Hard = r.IntN(3) == 0 && !(Avoid["append-hard"] && st.Method == Append)
		st.Versioned = !sc.Truncate && st.Method != Overwrite && r.IntN(3) == 0
		sc.Streams = append(sc.Streams, st)
	}
	historyStreams(seed, sc)
	overrides := map[string]any{}
	for _, st := range sc.Streams {
		overrides[st.Name] = map[string]any{"load_method": string(st.Method), "hard_delete": st.Hard}
	}
	sc.Settings = map[string]any{
		"batch_size_rows":          1 + r.IntN(5),
		"max_parallelism":          parallelism(r),
		"batch_wait_limit_seconds": 86400,
		"truncate_before_load":     sc.Truncate,
		"stream_overrides":         overrides,
	}
	if failKind == "evolution" {
		sc.Settings["schema_evolution"] = "fail"
	}
	addPrune(sc, overrides)

	g := &gen{r: r, sc: sc, cur: map[string]*Schema{}, version: map[string]int64{}, records: map[string]int{}}
	steps := 15 + r.IntN(40)
	if keyChange {
		// The key changes before the stream's first record, on an empty
		// table: SCHEMA [id], SCHEMA [id, k2], then its records.
		st := sc.Streams[r.IntN(len(sc.Streams))]
		if !st.Keyless {
			g.schema(st.Name, &Schema{Keys: []string{"id"}, VMax: 10})
			g.schema(st.Name, &Schema{Keys: []string{"id", "k2"}, VMax: 10})
		}
	}
	failAt := -1
	if failKind != "" {
		failAt = steps/3 + r.IntN(steps/3+1)
	}
	for i := 0; i < steps; i++ {
		if i == failAt && g.failure(failKind) {
			failAt = -1 // a few messages may follow the failing one
		}
		st := sc.Streams[r.IntN(len(sc.Streams))]
		switch x := r.IntN(100); {
		case x < 62:
			g.record(st)
		case x < 80:
			g.state()
		case x < 88:
			g.widen(st.Name)
		case x < 95 && st.Versioned:
			g.activate(st.Name, r.IntN(2) == 0)
		default:
			g.record(st)
		}
	}
	if r.IntN(2) == 0 || sc.anyReset() {
		// A resetting stream's records after the last STATE would replace
		// its table in a run resumed from that state: taps end with one.
		g.state()
	}
	markRefused(sc) // reject.go
	return sc
}

func parallelism(r *rand.Rand) int {
	n := 1 + r.IntN(3)
	if Avoid["parallel"] {
		return 1
	}
	return n
}

type gen struct {
	r       *rand.Rand
	sc      *Scenario
	cur     map[string]*Schema
	version map[string]int64
	records map[string]int
}

func (g *gen) add(m Msg) { g.sc.Msgs = append(g.sc.Msgs, m) }

func (g *gen) schema(stream string, s *Schema) {
	st := g.sc.stream(stream)
	if st.Keyless {
		s.Keys = nil
	}
	g.cur[stream] = s
	g.add(Msg{Kind: "SCHEMA", Stream: stream, Schema: s, Text: schemaText(stream, s)})
}

func schemaText(stream string, s *Schema) string {
	nType := "integer"
	if s.NNumber {
		nType = "number"
	}
	props := fmt.Sprintf(`{"id":{"type":"integer"},"k2":{"type":"integer"},"q":{"type":"integer"},`+
		`"v":{"type":["null","string"],"maxLength":%d},"n":{"type":["null","%s"]},`+
		`"_sdc_deleted_at":{"type":["null","string"],"format":"date-time"}}`, s.VMax, nType)
	keys, _ := json.Marshal(append([]string{}, s.Keys...))
	return fmt.Sprintf(`{"type":"SCHEMA","stream":%q,"schema":{"type":"object","properties":%s},"key_properties":%s}`,
		stream, props, keys)
}

// ensure sends the stream's first SCHEMA if it has none yet.
func (g *gen) ensure(stream string) *Schema {
	if s := g.cur[stream]; s != nil {
		return s
	}
	g.schema(stream, &Schema{Keys: []string{"id"}, VMax: 5 + g.r.IntN(10)})
	if st := g.sc.stream(stream); st.Versioned && g.r.IntN(2) == 0 {
		// Full-table syncs often start with ACTIVATE_VERSION of the new
		// version (Singer SDK).
		g.version[stream] = 1
		g.add(Msg{Kind: "ACTIVATE_VERSION", Stream: stream, Version: 1, Text: activateText(stream, 1)})
	}
	return g.cur[stream]
}

func (g *gen) record(st StreamSpec) {
	s := g.ensure(st.Name)
	q := len(g.sc.Msgs)
	rec := &Rec{ID: 1 + g.r.IntN(5), K2: g.r.IntN(2), Q: q}
	if g.r.IntN(6) > 0 {
		v := randText(g.r, g.r.IntN(s.VMax+1))
		rec.V = &v
	}
	switch x := g.r.IntN(6); {
	case x == 0:
	case x < 3 && s.NNumber:
		rec.N = fmt.Sprintf("%d.%d", g.r.IntN(100)-50, 1+g.r.IntN(9))
	default:
		rec.N = fmt.Sprint(g.r.IntN(100) - 50)
	}
	if g.r.IntN(6) == 0 {
		rec.Deleted = fmt.Sprintf("2024-0%d-0%dT0%d:00:00Z", 1+g.r.IntN(9), 1+g.r.IntN(9), g.r.IntN(10))
	}
	if st.Versioned {
		if g.version[st.Name] == 0 {
			g.version[st.Name] = 1
		}
		rec.Version = g.version[st.Name]
	}
	g.records[st.Name]++
	g.add(Msg{Kind: "RECORD", Stream: st.Name, Rec: rec, Text: recordText(st.Name, rec)})
}

func recordText(stream string, r *Rec) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"id":%d,"k2":%d,"q":%d`, r.ID, r.K2, r.Q)
	if r.V != nil {
		v, _ := json.Marshal(*r.V)
		fmt.Fprintf(&b, `,"v":%s`, v)
	}
	if r.N != "" {
		fmt.Fprintf(&b, `,"n":%s`, r.N)
	}
	if r.Deleted != "" {
		fmt.Fprintf(&b, `,"_sdc_deleted_at":%q`, r.Deleted)
	}
	b.WriteByte('}')
	ver := ""
	if r.Version != 0 {
		ver = fmt.Sprintf(`,"version":%d`, r.Version)
	}
	return fmt.Sprintf(`{"type":"RECORD","stream":%q,"record":%s%s}`, stream, b.String(), ver)
}

func randText(r *rand.Rand, n int) string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[r.IntN(len(letters))]
	}
	return string(b)
}

// state writes a STATE whose value names its own position, so a resumed
// run knows where to start.
func (g *gen) state() {
	pos := len(g.sc.Msgs)
	g.add(Msg{Kind: "STATE", Text: fmt.Sprintf(`{"type":"STATE","value":{"pos":%d}}`, pos)})
}

// widen sends a SCHEMA that widens v or n, or repeats the current one.
func (g *gen) widen(stream string) {
	s := g.cur[stream]
	if s == nil {
		return
	}
	ns := *s
	ns.Keys = append([]string(nil), s.Keys...)
	switch x := g.r.IntN(3); {
	case g.sc.Settings["schema_evolution"] == "fail":
		// Only the designated failure changes the table.
	case x == 0:
		ns.VMax += 1 + g.r.IntN(20)
	case x == 1:
		ns.NNumber = true
	}
	g.schema(stream, &ns)
}

func (g *gen) activate(stream string, bump bool) {
	if g.cur[stream] == nil {
		return
	}
	if bump || g.version[stream] == 0 {
		g.version[stream]++
	}
	v := g.version[stream]
	g.add(Msg{Kind: "ACTIVATE_VERSION", Stream: stream, Version: v, Text: activateText(stream, v)})
}

func activateText(stream string, v int64) string {
	return fmt.Sprintf(`{"type":"ACTIVATE_VERSION","stream":%q,"version":%d}`, stream, v)
}

// failure emits the message that must fail the run: a widening under
// schema_evolution: fail, or a key change on a stream that has rows. It
// reports whether it could.
func (g *gen) failure(kind string) bool {
	var names []string
	for _, st := range g.sc.Streams {
		if g.records[st.Name] > 0 && !st.Keyless && st.Method != Overwrite && !g.sc.Truncate {
			names = append(names, st.Name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		s := g.cur[name]
		ns := *s
		if kind == "key" {
			if st := g.sc.stream(name); st.Hard || st.Method == Append || st.Method == History {
				// every row may be gone (a history delete of a key with no
				// version writes nothing): the key change would be legal
				continue
			}
			ns.Keys = []string{"id", "k2"}
			if len(s.Keys) == 2 {
				ns.Keys = []string{"id"}
			}
		} else {
			ns.Keys = append([]string(nil), s.Keys...)
			ns.VMax += 7
		}
		g.sc.Fail = len(g.sc.Msgs)
		g.schema(name, &ns)
		return true
	}
	return false
}
