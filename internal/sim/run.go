package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/pipeline"
	"github.com/target-oracle/target-oracle/internal/table"
)

// MaxRuns is the most runs of one trial; the last runs undisturbed.
const MaxRuns = 5

// Options tune a trial.
type Options struct {
	// Binary, when set, is a target-oracle executable: a share of trials
	// then run it as a subprocess on a persistent store and kill it with
	// SIGKILL (TARGET_ORACLE_TEST_FAULT).
	Binary string
	// Dir holds per-trial files (settings, store).
	Dir string
	// Subprocess forces (true) the subprocess runner for every trial
	// when Binary is set; otherwise one seed in SubprocessShare uses it.
	Subprocess bool
	// FakeOracle runs every in-process trial on the Oracle engine and the
	// fake server (otherwise one seed in FakeShare).
	FakeOracle bool
	// Scheduled says Run is called inside a synctest bubble
	// (synctest.Test): every in-process run is then ordered by a seeded
	// scheduler (sched.go) and replays identically.
	Scheduled bool
}

// FakeShare: one seed in this many (in process) runs on the Oracle engine
// in front of internal/oracle/fake, with a fault at one of its calls.
const FakeShare = 5

// SubprocessShare: one seed in this many runs as a subprocess (when a
// binary is given).
const SubprocessShare = 8

// RunLog is one run of a trial, for the report.
type RunLog struct {
	From   int // bookmark: position of the STATE resumed from, -1 for none
	Plan   *Point
	Fake   string // the fault injected into the fake Oracle server, if any
	Err    string
	States []int // positions of the states written
}

// Result is a trial's outcome.
type Result struct {
	Seed       uint64
	Scenario   *Scenario
	Runs       []RunLog
	Subprocess bool
	FakeOracle bool // the Oracle engine on internal/oracle/fake
	Failures   []string
}

func (r *Result) failf(format string, a ...any) {
	if len(r.Failures) < 20 {
		r.Failures = append(r.Failures, fmt.Sprintf(format, a...))
	}
}

// Report describes the trial for a failing test.
func (r *Result) Report() string {
	var b strings.Builder
	sc := r.Scenario
	set, _ := json.Marshal(sc.Settings)
	fmt.Fprintf(&b, "seed %d (subprocess %v, fake Oracle %v): settings %s\n", r.Seed, r.Subprocess, r.FakeOracle, set)
	for i, run := range r.Runs {
		fmt.Fprintf(&b, "  run %d: from %d, plan %s, fake fault %s, states %v, err %q\n", i, run.From, run.Plan, run.Fake, run.States, run.Err)
	}
	for _, f := range r.Failures {
		fmt.Fprintf(&b, "  FAIL: %s\n", f)
	}
	b.WriteString("  input:\n")
	for i, m := range sc.Msgs {
		fmt.Fprintf(&b, "   %3d %s\n", i, m.Text)
	}
	return b.String()
}

// trial is the state of one trial across its runs.
type trial struct {
	res    *Result
	sc     *Scenario
	opts   Options
	cfg    *config.Config
	cfgArg string
	full   []map[string]view // snapshots without resets: full[L] after L messages
	final  *Model            // the model after every message
	sent   map[int]int       // RECORD index -> runs whose input held it
	r      *rand.Rand
	counts map[string]int // events of an undisturbed run, per kind
}

// Run runs the trial of a seed.
func Run(seed uint64, opts Options) *Result {
	sc := Generate(seed)
	res := &Result{Seed: seed, Scenario: sc}
	t := &trial{res: res, sc: sc, opts: opts, sent: map[int]int{},
		r: rand.New(rand.NewPCG(seed^0x5151, seed))}
	if err := t.setup(); err != nil {
		res.failf("setup: %v", err)
		return res
	}
	res.Subprocess = opts.Binary != "" && (opts.Subprocess || seed%SubprocessShare == 0) && !sc.rejecting()
	res.FakeOracle = !res.Subprocess && (opts.FakeOracle || seed%FakeShare == 2) && !sc.rejecting()
	t.probe()
	if res.Subprocess {
		t.subprocess()
	} else {
		t.inProcess()
	}
	return res
}

func (t *trial) setup() error {
	dir, err := os.MkdirTemp(t.opts.Dir, "trial-")
	if err != nil {
		return err
	}
	t.opts.Dir = dir
	t.rejectSetup(dir)
	b, _ := json.Marshal(t.sc.Settings)
	t.cfgArg = filepath.Join(dir, "config.json")
	if err := os.WriteFile(t.cfgArg, b, 0o600); err != nil {
		return err
	}
	cfg, _, err := config.Load(config.Sources{ConfigArgs: []string{t.cfgArg}})
	if err != nil {
		return fmt.Errorf("settings %s: %w", b, err)
	}
	t.cfg = cfg
	m := newModel(t.sc)
	t.full = append(t.full, m.views())
	for i, msg := range t.sc.Msgs {
		if !t.skip(i) {
			m.apply(msg, false)
		}
		t.full = append(t.full, m.views())
	}
	t.final = m
	return nil
}

// runSnaps are the snapshots as a run resumed from the STATE at index from
// can see them: the rows the database held when the run started, then the
// messages after from applied one by one (a resetting stream's table is
// emptied at its first record). A replay applies older records over rows
// a crashed run wrote later (a soft delete then marks a newer row), so the
// run's start, not the model of the whole input, is where it starts from.
func (t *trial) runSnaps(from int, db database) []map[string]view {
	m := newModel(t.sc)
	for name, ft := range t.final.tables {
		if db != nil && db.exists("DRY_RUN."+strings.ToUpper(name)) {
			m.tables[name] = &mtable{keys: ft.keys, skeys: ft.skeys, rows: t.storedRows(db, name)}
		}
	}
	limit := len(t.full) - 1
	for i := 0; i <= from && i < limit; i++ {
		if t.sc.Msgs[i].Kind == "SCHEMA" {
			m.apply(t.sc.Msgs[i], false)
		}
	}
	seen := map[string]bool{}
	v := m.views()
	var out []map[string]view
	for L := 0; L <= from+1 && L <= limit; L++ {
		out = append(out, v)
	}
	for i := from + 1; i < limit; i++ {
		msg := t.sc.Msgs[i]
		reset := false
		if msg.Kind == "RECORD" && t.sc.resets(msg.Stream) && !seen[msg.Stream] {
			seen[msg.Stream], reset = true, true
		}
		if !t.skip(i) {
			m.apply(msg, reset)
		}
		out = append(out, m.views())
	}
	return out
}

// skip reports whether message i never takes effect: the message that must
// fail and every later message of its stream. Other streams' messages read
// ahead of the failure may commit (only states after it are forbidden).
func (t *trial) skip(i int) bool {
	f := t.sc.Fail
	return f >= 0 && i >= f && t.sc.Msgs[i].Stream == t.sc.Msgs[f].Stream && t.sc.Msgs[i].Kind != "STATE"
}

// resume is the input of a run resumed from the STATE at index from: each
// stream's SCHEMA current there, then every message after it.
func (t *trial) resume(from int) (string, []int) {
	var msgs []Msg
	var idx []int
	if from >= 0 {
		last := map[string]int{}
		var order []string
		for i := 0; i < from; i++ {
			if m := t.sc.Msgs[i]; m.Kind == "SCHEMA" {
				if _, ok := last[m.Stream]; !ok {
					order = append(order, m.Stream)
				}
				last[m.Stream] = i
			}
		}
		for _, s := range order {
			msgs = append(msgs, t.sc.Msgs[last[s]])
			idx = append(idx, last[s])
		}
	}
	for i := from + 1; i < len(t.sc.Msgs); i++ {
		msgs = append(msgs, t.sc.Msgs[i])
		idx = append(idx, i)
	}
	return Input(msgs), idx
}

// probe counts the events of an undisturbed run on a scratch database, so
// that kill points can be chosen among the events that happen.
func (t *trial) probe() {
	db := newDB(t.res.FakeOracle)
	in, _ := t.resume(-1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := t.newControl(nil, cancel, -1)
	w := &stateWriter{c: c}
	err := t.runPipeline(ctx, db, c, in, w)
	t.counts = map[string]int{}
	for k, v := range c.counts {
		t.counts[k] = v
	}
	t.counts["state"] = len(w.states)
	if t.sc.Fail < 0 && err != nil {
		t.res.failf("an undisturbed run of valid input failed: %v", err)
	}
}

func newDB(fakeOracle bool) database {
	if fakeOracle {
		return newFakeDB()
	}
	db, err := newMemDB("")
	if err != nil {
		panic(err) // no store: nothing to read
	}
	return db
}

// eofReader tells when the target has read the whole input.
type eofReader struct {
	r   *strings.Reader
	eof atomic.Bool
}

func (e *eofReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err == io.EOF {
		e.eof.Store(true)
	}
	return n, err
}

// newControl is run's control (-1: the probe), scheduled when the trial is.
func (t *trial) newControl(plan *Point, cancel context.CancelFunc, run int) *control {
	c := newControl(plan, cancel)
	if t.opts.Scheduled {
		c.sched = newScheduler(t.res.Seed, run+1)
	}
	return c
}

// runPipeline is one run, its scheduler beside it when there is one.
func (t *trial) runPipeline(ctx context.Context, db database, c *control, in string, w *stateWriter) error {
	if c.sched == nil {
		return t.pipeline(ctx, db, c, in, w)
	}
	stop, exited := make(chan struct{}), make(chan struct{})
	go c.sched.loop(stop, exited)
	err := t.pipeline(ctx, db, c, in, w)
	close(stop)
	<-exited
	if g := c.sched.clashed(); g != "" {
		t.res.failf("sim: two goroutines waited at gate %q at once; the Go scheduler, not the seed, ordered them", g)
	}
	return err
}

func (t *trial) pipeline(ctx context.Context, db database, c *control, in string, w *stateWriter) error {
	w.c = c
	w.in = &eofReader{r: strings.NewReader(in)}
	return pipeline.Run(ctx, pipeline.Options{
		Config:   t.cfg,
		Engine:   &simEngine{db: db.engine(), c: c},
		Server:   pipeline.Server{DefaultSchema: "DRY_RUN", IdentifierMaxBytes: 128, VarcharMaxBytes: 4000},
		Input:    w.in,
		StateOut: w,
		Now:      func() time.Time { return Now },
		Stop:     c.stop,
		BeforeJob: func(stream string) {
			if c.sched != nil {
				c.sched.pass("job " + stream)
			}
		},
	})
}

// choose picks a disturbance for run i.
func (t *trial) choose(i int) *Point {
	if t.sc.Fail >= 0 || i >= MaxRuns-1 {
		return nil
	}
	if i > 0 && t.r.IntN(2) == 0 {
		return nil
	}
	var kinds []string
	for k, n := range t.counts {
		if n > 0 && (!t.res.Subprocess || i > 0 || k == "ddl" || k == "load" || k == "truncate" || k == "state") {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) == 0 {
		return nil
	}
	sort.Strings(kinds)
	kind := kinds[t.r.IntN(len(kinds))]
	p := &Point{Kind: kind, K: 1 + t.r.IntN(t.counts[kind])}
	acts := []Action{Crash, Crash, Crash, CrashAfter, CrashAfter, Fault, Fault, Term, Term2, Hold}
	if kind == "state" {
		acts = append(acts, Block)
	}
	if t.res.Subprocess && i == 0 {
		// SIGKILL at an engine call or state write; SIGTERM once the
		// orchestrator has read K states.
		acts = []Action{Crash, Crash, CrashAfter, CrashAfter, Fault}
		if kind == "state" {
			acts = append(acts, Term)
		}
	}
	p.Action = acts[t.r.IntN(len(acts))]
	return p
}

// stateWriter is the orchestrator's end of stdout: it checks every state
// against the database at the moment it is written.
type stateWriter struct {
	c      *control
	in     *eofReader
	check  func(pos int, eof bool)
	states []int
	buf    []byte
	mu     sync.Mutex
	bad    []string
}

var posRE = regexp.MustCompile(`^\{"pos":(\d+)\}$`)

func (w *stateWriter) Write(p []byte) (int, error) {
	act, err := w.c.before("state", "")
	if err != nil {
		return 0, err // dead: the line never reaches the orchestrator
	}
	if act == Fault {
		return 0, fmt.Errorf("sim: injected fault at %s", w.c.plan)
	}
	if act == Block {
		// The consumer stops reading; the orchestrator gives up: first
		// signal, then the second. The write never completes.
		w.c.mu.Lock()
		w.c.signal()
		w.c.mu.Unlock()
		w.c.cancel()
		return 0, fmt.Errorf("sim: stdout blocked, run aborted")
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	for {
		i := strings.IndexByte(string(w.buf), '\n')
		if i < 0 {
			break
		}
		line := strings.TrimSpace(string(w.buf[:i]))
		w.buf = w.buf[i+1:]
		m := posRE.FindStringSubmatch(strings.ReplaceAll(line, " ", ""))
		if m == nil {
			w.bad = append(w.bad, fmt.Sprintf("state line %q is not a state of the input", line))
			continue
		}
		pos, _ := strconv.Atoi(m[1])
		if trace {
			fmt.Fprintf(os.Stderr, "trace: state %d\n", pos)
		}
		if w.check != nil {
			w.check(pos, w.in.eof.Load())
		}
		w.states = append(w.states, pos)
	}
	w.c.release()
	if act == CrashAfter {
		w.c.killNow()
	}
	return len(p), nil
}

// inProcess runs the trial's runs through pipeline.Run on one database.
func (t *trial) inProcess() { t.runInProcess(newDB(t.res.FakeOracle), 0, -1) }

// runInProcess runs the trial's runs from run first on, the first resumed
// from the STATE at index from.
func (t *trial) runInProcess(db database, first, from int) {
	// A fault left armed on the fake server fires once in a later run: it
	// may cost a run beyond MaxRuns.
	for i := first; i < MaxRuns+fakeFaults(db); i++ {
		plan := t.choose(i)
		fault := t.injectFake(db, i)
		hitsBefore := fakeHits(db)
		in, idx := t.resume(from)
		t.countSent(idx)
		snaps := t.runSnaps(from, db)
		ctx, cancel := context.WithCancel(context.Background())
		c := t.newControl(plan, cancel, i)
		runFrom := from
		w := &stateWriter{}
		w.check = func(pos int, eof bool) {
			where := fmt.Sprintf("run %d, state %d", i, pos)
			t.checkState(db, snaps, runFrom, pos, where)
			t.checkHeld(runFrom, pos, where)
		}
		done := make(chan error, 1)
		go func() { done <- t.runPipeline(ctx, db, c, in, w) }()
		var err error
		select {
		case err = <-done:
		case <-time.After(20 * time.Second):
			// Only a hang gets here: the trial fails, whatever the clock.
			t.res.failf("run %d (plan %s) did not end", i, plan)
			cancel()
			return
		}
		cancel()
		log := RunLog{From: from, Plan: plan, States: w.states, Fake: fault.String()}
		switch {
		case c.isDead():
			// Which goroutine hears of the death first is up to the Go
			// runtime; nothing after it takes effect.
			log.Err = errKilled.Error()
		case err != nil:
			log.Err = err.Error()
		}
		t.res.Runs = append(t.res.Runs, log)
		for _, b := range w.bad {
			t.res.failf("run %d: %s", i, b)
		}
		t.checkOrder(i, from, idx, w.states)
		if len(w.states) > 0 {
			from = w.states[len(w.states)-1]
		}
		if t.sc.Fail >= 0 {
			t.checkFailure(i, err, w.states)
			return
		}
		if !c.isDead() && (err == nil || !c.fired && fakeHits(db) == hitsBefore) {
			if err != nil {
				t.res.failf("run %d: undisturbed run failed: %v", i, err)
				return
			}
			t.checkEnd(i, idx, w.states)
			t.checkFinal(db, from)
			return
		}
	}
	t.res.failf("no run finished in %d runs", MaxRuns)
}

func (t *trial) countSent(idx []int) {
	for _, i := range idx {
		if t.sc.Msgs[i].Kind == "RECORD" {
			t.sent[i]++
		}
	}
}

// checkOrder: states come in input order, each from this run's input.
func (t *trial) checkOrder(run, from int, idx []int, states []int) {
	in := map[int]bool{}
	for _, i := range idx {
		in[i] = true
	}
	prev := from
	for _, s := range states {
		if !in[s] || t.sc.Msgs[s].Kind != "STATE" {
			t.res.failf("run %d wrote state %d, which is not a STATE of its input", run, s)
		}
		if s <= prev {
			t.res.failf("run %d wrote state %d after state %d", run, s, prev)
		}
		prev = s
	}
}

// checkEnd (SPEC §7 rule 2): after a clean end of input the newest STATE
// of the input has been written.
func (t *trial) checkEnd(run int, idx []int, states []int) {
	last := -1
	for _, i := range idx {
		if t.sc.Msgs[i].Kind == "STATE" {
			last = i
		}
	}
	got := -1
	if len(states) > 0 {
		got = states[len(states)-1]
	}
	if last > got && !(len(idx) > 0 && last < idx[0]) {
		t.res.failf("run %d ended cleanly; its last STATE (%d) was not written (last written: %d)", run, last, got)
	}
}

// checkFailure: an input whose message Fail must fail: the run fails and
// no STATE read after it is written (SPEC §7 rule 1).
func (t *trial) checkFailure(run int, err error, states []int) {
	if err == nil {
		t.res.failf("run %d: message %d (%s) should have failed the run; it ended cleanly", run, t.sc.Fail, t.sc.Msgs[t.sc.Fail].Text)
	}
	for _, s := range states {
		if s > t.sc.Fail {
			t.res.failf("run %d wrote state %d, read after message %d that failed", run, s, t.sc.Fail)
		}
	}
}

// stored is the database's view of a stream's table, with the model's
// identity columns.
func (t *trial) stored(db database, stream string) view {
	v := view{}
	keys := t.final.tables[stream].keys
	for _, rr := range t.storedRows(db, stream) {
		id := identity(keys, rr)
		v[id] = append(v[id], rowText(rr))
	}
	return v
}

// storedRows are the database's rows of a stream's table, the compared
// columns only.
func (t *trial) storedRows(db database, stream string) []row {
	var out []row
	for _, r := range db.rows("DRY_RUN." + strings.ToUpper(stream)) {
		if closedVersion(t.sc, stream, r) {
			continue
		}
		rr := row{}
		for _, c := range compared {
			if x, ok := r[c]; ok && x != "" {
				if c == table.MetaDeletedAt {
					x = canonTime(x)
				}
				rr[c] = x
			}
		}
		out = append(out, rr)
	}
	return out
}

const absent = "<absent>"

// checkState (check 1): when the STATE at pos is written, every message
// before it has taken effect: each row is as some moment at or after pos
// left it.
func (t *trial) checkState(db database, snaps []map[string]view, from, pos int, where string) {
	t.checkRejects(pos, where)
	for _, st := range t.sc.Streams {
		if t.final.tables[st.Name] == nil {
			continue
		}
		if pos >= len(snaps) {
			pos = len(snaps) - 1 // a state after a failing message: checkFailure reports it
		}
		got := t.stored(db, st.Name)
		if trace {
			fmt.Fprintf(os.Stderr, "trace: check %s at %d: stored %v\n", st.Name, pos, got)
		}
		reach := map[string]map[string]bool{}
		add := func(id, val string) {
			if reach[id] == nil {
				reach[id] = map[string]bool{}
			}
			reach[id][val] = true
		}
		ids := map[string]bool{}
		for id := range got {
			ids[id] = true
		}
		for L := pos; L < len(snaps); L++ {
			for id := range snaps[L][st.Name] {
				ids[id] = true
			}
		}
		for id := range ids {
			for L := pos; L < len(snaps); L++ {
				vals := snaps[L][st.Name][id]
				if len(vals) == 0 {
					add(id, absent)
				}
				for _, v := range vals {
					add(id, v)
				}
			}
		}
		for _, id := range sortedKeys(ids) {
			vals := got[id]
			if len(vals) == 0 && !reach[id][absent] {
				t.res.failf("%s: stream %s row %s is missing: it was read before the state (want one of %v)",
					where, st.Name, id, setList(reach[id]))
			}
			for _, v := range vals {
				if !reach[id][v] {
					t.res.failf("%s: stream %s row %s is %q: not what the input before the state gives (want one of %v)",
						where, st.Name, id, v, setList(reach[id]))
				}
			}
		}
	}
}

// checkHeld (SPEC §6.2, §7 rule 3): before end of input no state covers a
// record of an overwrite or truncate_before_load stream read in this run.
// Only the input's last STATE can be written at the end, so any other that
// covers such a record was written too early.
func (t *trial) checkHeld(from, pos int, where string) {
	for i := len(t.sc.Msgs) - 1; i >= 0; i-- {
		if t.sc.Msgs[i].Kind == "STATE" {
			if i == pos {
				return
			}
			break
		}
	}
	for i := from + 1; i < pos; i++ {
		if m := t.sc.Msgs[i]; m.Kind == "RECORD" && t.sc.holds(m.Stream) {
			t.res.failf("%s: written before end of input, it covers record %d of stream %s, whose states are held to the end (overwrite or truncate_before_load)",
				where, i, m.Stream)
			return
		}
	}
}

// checkFinal (check 2): the final tables equal the model; append rows may
// repeat only as often as runs re-sent them.
func (t *trial) checkFinal(db database, from int) {
	t.checkRejects(len(t.sc.Msgs), "end")
	t.checkHistory(db, "final")
	for _, st := range t.sc.Streams {
		if t.final.tables[st.Name] == nil {
			continue
		}
		// Resetting streams too: no state covers their records before
		// end of input (SPEC §6.2), so every run re-sends all of them.
		want := t.full[len(t.full)-1][st.Name]
		got := t.stored(db, st.Name)
		ids := map[string]bool{}
		for id := range got {
			ids[id] = true
		}
		for id := range want {
			ids[id] = true
		}
		keyed := len(t.final.tables[st.Name].keys) > 0
		for _, id := range sortedKeys(ids) {
			g, w := got[id], want[id]
			switch {
			case len(w) == 0:
				t.res.failf("final: stream %s has row %s %v; the model has none", st.Name, id, g)
			case len(g) == 0:
				t.res.failf("final: stream %s lost row %s (%s)", st.Name, id, w[0])
			default:
				for _, v := range g {
					if v != w[0] {
						t.res.failf("final: stream %s row %s is %q, want %q", st.Name, id, v, w[0])
						break
					}
				}
				q, _ := strconv.Atoi(strings.TrimPrefix(id, "q="))
				if keyed && len(g) > 1 {
					t.res.failf("final: stream %s has %d rows for key %s", st.Name, len(g), id)
				} else if !keyed && len(g) > t.sent[q] {
					t.res.failf("final: stream %s has %d copies of row %s, sent %d times", st.Name, len(g), id, t.sent[q])
				}
			}
		}
	}
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func setList(m map[string]bool) []string {
	out := sortedKeys(m)
	if len(out) > 4 {
		out = append(out[:4], "…")
	}
	return out
}
