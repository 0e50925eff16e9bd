package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/target-oracle/target-oracle/internal/batch"
	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/singer"
	"github.com/target-oracle/target-oracle/internal/table"
	"github.com/target-oracle/target-oracle/internal/value"
)

// on_database_error: reject (SPEC §6.3, docs/guarantees.md "Rows the
// database refuses"). A batch whose load fails with a row-level error is
// tried again in parts, in rolled-back transactions, until the rows the
// database refuses on their own are known; their records go to
// reject_path and the rest of the batch commits, exactly as applying its
// records one by one, skipping the refused ones, would leave the table.

// refusal is one record of a batch the database refused.
type refusal struct {
	line   int64
	err    string // "ORA-…: …"
	record []byte // the record as received
}

// minRefusedLimit is the least number of refused rows a batch may have
// before the run fails instead (SPEC §6.3: max(16, rows/100)).
const minRefusedLimit = 16

// refusedLimit is how many refused rows a batch of n records may have.
func refusedLimit(n int) int { return max(minRefusedLimit, n/100) }

// rejectingRows reports whether rows the database refuses are rejected.
func (p *pipeline) rejectingRows() bool { return p.cfg.RejectsDatabaseErrors() }

// refusable reports whether err is a refusal of one row's values that
// on_database_error: reject quarantines: a row-level ORA code of SPEC
// §6.3's list, ORA-00001 only from an INSERT (from a MERGE it is another
// pipeline inserting the same new key: retried, never rejected).
func refusable(err error, m engine.Method) bool {
	switch engine.RowErrorCode(err) {
	case 12899, 1438, 1722, 1400, 2290, 2291, 2292:
		return true
	case 1:
		return m == engine.Insert
	}
	return false
}

// mergeDuplicate reports whether err is ORA-00001 from a MERGE.
func mergeDuplicate(err error, w *engine.Write) bool {
	return w.Method == engine.Upsert && engine.ErrorCode(err) == 1
}

// loadOnce runs the batch's steps, retrying once in a fresh transaction
// when a MERGE met ORA-00001 (SPEC §6.3: two pipelines inserting one new
// key; the retry's MERGE finds the other's row and updates it).
func (p *pipeline) loadOnce(ctx context.Context, sess engine.Session, steps []engine.Step, w *engine.Write) (engine.Result, error) {
	steps = p.loadSteps(steps)
	res, err := sess.Load(ctx, steps)
	if err != nil && mergeDuplicate(err, w) {
		p.log.Warn("ORA-00001 from a MERGE (another load inserted the same key): retrying the batch once",
			"table", w.Table.QualifiedName(), "err", err.Error())
		res, err = sess.Load(ctx, steps)
	}
	return res, err
}

// loadRejecting loads a batch under on_database_error: reject. steps end
// with w; j.refused receives the records rejected. When noWiden is set
// the table kept a column narrower than some values need (schema_evolution
// forbids the widening): those rows are refused before any load.
func (p *pipeline) loadRejecting(ctx context.Context, sess engine.Session, j *job, steps []engine.Step, w *engine.Write, noWiden bool) (engine.Result, error) {
	b := j.buf
	replaced := len(w.Rows) < b.rows() // some records were folded into later ones
	var failed error                   // the rows chainRows builds first are known to fail so
	if !noWiden && !replaced {
		res, err := p.loadOnce(ctx, sess, steps, w)
		if err == nil || !refusable(err, w.Method) {
			return res, err
		}
		failed = err
	}
	trier, ok := sess.(engine.Trier)
	if !ok {
		return engine.Result{}, fmt.Errorf("on_database_error reject: the engine cannot try parts of a batch")
	}
	head := steps[:len(steps)-1] // the Replace of an overwrite's first flush, if any
	withRows := func(rows []engine.Row) []engine.Step {
		cw := *w
		cw.Rows = slices.Clone(rows)
		return p.loadSteps(append(slices.Clone(head), &cw))
	}
	limit := refusedLimit(b.rows())
	skip := map[int]string{} // record index → why it is refused
	if replaced {
		// Records a later record for their key replaced never reach the
		// database in the batch's write; applied one by one they would,
		// and a refused one would be rejected: try them on their own.
		_, _, superseded := p.chainRows(j, w, skip)
		if err := p.refuseSuperseded(ctx, trier, j, w, withRows, superseded, limit, skip); err != nil {
			return engine.Result{}, err
		}
	}
	for {
		rows, src, _ := p.chainRows(j, w, skip)
		if noWiden {
			if n := p.refuseUnfit(j, w, rows, src, skip); n > 0 {
				if len(skip) > limit {
					return engine.Result{}, tooManyRefused(j, skip, limit)
				}
				continue // the keys' rows are built again without them
			}
		}
		var res engine.Result
		err := failed // no need to load again what just failed
		if failed == nil {
			res, err = p.loadOnce(ctx, sess, withRows(rows), w)
		}
		failed = nil
		if err == nil {
			j.setRefused(skip)
			return res, nil
		}
		if !refusable(err, w.Method) {
			return engine.Result{}, err
		}
		found, err := bisectRefused(ctx, trier, withRows, rows, w.Method, limit-len(skip))
		if err != nil {
			return engine.Result{}, err
		}
		if len(found) == 0 {
			// The batch fails, but no row does on its own or after the
			// rows before it: not a row's fault.
			return engine.Result{}, fmt.Errorf("the batch fails, but no row is refused on its own: %w", firstErr(ctx, trier, withRows(rows)))
		}
		for i, e := range found {
			skip[src[i]] = e
		}
		if len(skip) > limit {
			return engine.Result{}, tooManyRefused(j, skip, limit)
		}
	}
}

func firstErr(ctx context.Context, t engine.Trier, steps []engine.Step) error {
	if err := t.TryLoad(ctx, steps); err != nil { // steps come from withRows, expanded
		return err
	}
	return errors.New("it succeeded when tried again")
}

// bisectRefused finds the rows the database refuses when rows are applied
// in order, each after the ones accepted before it: halves are tried, in
// rolled-back transactions, together with the rows already accepted, down
// to single rows (SPEC §6.3). It returns the refused rows' indexes with
// their error text. It stops once more than limit rows are refused.
func bisectRefused(ctx context.Context, t engine.Trier, withRows func([]engine.Row) []engine.Step, rows []engine.Row, m engine.Method, limit int) (map[int]string, error) {
	found := map[int]string{}
	var accepted []engine.Row
	var try func(lo, hi int, known bool) error
	// known: rows[lo:hi] after accepted is known to fail.
	try = func(lo, hi int, known bool) error {
		if !known {
			err := t.TryLoad(ctx, withRows(append(slices.Clone(accepted), rows[lo:hi]...)))
			if err == nil {
				accepted = append(accepted, rows[lo:hi]...)
				return nil
			}
			if !refusable(err, m) {
				return err
			}
			if hi-lo == 1 {
				found[lo] = oraText(err)
				if len(found) > limit {
					return errStopBisect
				}
				return nil
			}
		}
		if hi-lo == 1 {
			// Known to fail alone after the accepted rows: but the error
			// is not known yet.
			return try(lo, hi, false)
		}
		mid := lo + (hi-lo)/2
		if err := try(lo, mid, false); err != nil {
			return err
		}
		return try(mid, hi, false)
	}
	if err := try(0, len(rows), true); err != nil && !errors.Is(err, errStopBisect) {
		return nil, err
	}
	return found, nil
}

var errStopBisect = errors.New("more refused rows than allowed")

// oraText is the server's part of an engine error: from its ORA code on.
func oraText(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "ORA-"); i >= 0 {
		return msg[i:]
	}
	return msg
}

// tooManyRefused is the error of a batch with more refused rows than
// refusedLimit allows: the run fails naming the first ones.
func tooManyRefused(j *job, skip map[int]string, limit int) error {
	idx := make([]int, 0, len(skip))
	for i := range skip {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	// The batch's input stream, when all its rows came from one other
	// than the stream (__alias__); else each row's (inputrows.go).
	only := j.buf.onlyInput()
	var b strings.Builder
	for n, i := range idx[:min(len(idx), 5)] {
		if n > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "line %d: ", j.buf.lines[i])
		if file, row := j.buf.fileOf(i); file != "" {
			fmt.Fprintf(&b, "BATCH file %q row %d: ", file, row)
		}
		if in := j.buf.inputOf(i); only == "" && in != "" {
			b.WriteString(streamText(j.name, in) + ": ")
		}
		b.WriteString(skip[i])
	}
	return &rowsNamed{fmt.Errorf("%s: the database refuses more than %d rows of a batch of %d records (on_database_error reject allows max(16, rows/100)); nothing of the batch is committed; the first: %s",
		streamText(j.name, only), limit, j.buf.rows(), b.String())}
}

// setRefused hands the refused records to the coordinator, which writes
// them to reject_path before any state covering them (complete). It runs
// on the worker.
func (j *job) setRefused(skip map[int]string) {
	j.refused = j.refused[:0]
	idx := make([]int, 0, len(skip))
	for i := range skip {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	for _, i := range idx {
		j.refused = append(j.refused, refusal{line: j.buf.lines[i], err: skip[i], record: j.buf.records[i]})
	}
}

// chainRows builds the batch's rows from its records, leaving out those
// in skip, as write does: classified, deduplicated by key (the last record
// wins; a soft delete keeps the values before it). src[i] is the record
// whose values rows[i] carries: the one rejected when the row is refused,
// so that the key's row is built again from its other records and the
// previous record for the key applies. Unlike write it never changes the
// buffer's values.
//
// superseded are the records whose values a later record for the key
// replaced (an upsert or hard delete after them).
func (p *pipeline) chainRows(j *job, w *engine.Write, skip map[int]string) (rows []engine.Row, src, superseded []int) {
	b := j.buf
	shape := j.shape()
	fold := batch.NewFolder(&shape, nil, true)
	dedupe := w.Method == engine.Upsert // as write: append-only batches keep every row (loadSteps)
	for i := 0; i < b.rows(); i++ {
		if _, ok := skip[i]; ok {
			continue
		}
		vals := b.row(i)
		r := engine.Row{Kind: shape.Kind(vals), Line: b.lines[i], Values: vals}
		if !dedupe {
			rows, src = append(rows, r), append(src, i)
			continue
		}
		n := len(rows)
		var at int
		var replaced bool
		rows, at, replaced = fold.Add(rows, r)
		switch {
		case len(rows) > n:
			src = append(src, i)
		case replaced:
			superseded = append(superseded, src[at])
			src[at] = i
		}
	}
	slices.Sort(superseded)
	return rows, src, superseded
}

// refuseSuperseded tries the superseded upserts on their own, in
// rolled-back transactions on the table as it was before the batch: a
// record's n-th earlier upsert for its key goes in the n-th trial write,
// so that no write holds a key twice. The refused ones join skip. Only
// upserts are tried: whether the database refuses one depends on its own
// values alone, while a soft or hard delete's effect depends on the
// records before it in the batch, which the trial does not apply.
func (p *pipeline) refuseSuperseded(ctx context.Context, t engine.Trier, j *job, w *engine.Write, withRows func([]engine.Row) []engine.Step, superseded []int, limit int, skip map[int]string) error {
	m := w.Method
	b := j.buf
	shape := j.shape()
	var gens [][]int // record indexes per trial write
	seen := map[string]int{}
	var kb []byte
	for _, i := range superseded {
		vals := b.row(i)
		if shape.Kind(vals) != engine.RowUpsert {
			continue
		}
		k := batch.Key(vals, shape.Keys, &kb)
		g := seen[k]
		seen[k] = g + 1
		if g == len(gens) {
			gens = append(gens, nil)
		}
		gens[g] = append(gens[g], i)
	}
	for _, gen := range gens {
		rows := make([]engine.Row, len(gen))
		for n, i := range gen {
			vals := b.row(i)
			rows[n] = engine.Row{Kind: engine.RowUpsert, Line: b.lines[i], Values: vals}
		}
		if j.noWiden && p.refuseUnfit(j, w, rows, gen, skip) > 0 {
			keep := 0
			for n, i := range gen {
				if _, refused := skip[i]; !refused {
					rows[keep], gen[keep] = rows[n], i
					keep++
				}
			}
			rows, gen = rows[:keep], gen[:keep]
			if len(skip) > limit {
				return tooManyRefused(j, skip, limit)
			}
			if len(rows) == 0 {
				continue
			}
		}
		err := t.TryLoad(ctx, withRows(rows))
		if err == nil {
			continue
		}
		if !refusable(err, m) {
			return err
		}
		found, err := bisectRefused(ctx, t, withRows, rows, m, limit-len(skip))
		if err != nil {
			return err
		}
		for n, e := range found {
			skip[gen[n]] = e
		}
		if len(skip) > limit {
			return tooManyRefused(j, skip, limit)
		}
	}
	return nil
}

// refuseUnfit refuses, before any load, the rows with a value the table's
// column cannot hold because schema_evolution forbids the widening it
// needs, with the error the database gives for such a value; it returns
// how many it added to skip.
func (p *pipeline) refuseUnfit(j *job, w *engine.Write, rows []engine.Row, src []int, skip map[int]string) int {
	cols := make([]*table.Column, len(w.Columns))
	for i, name := range w.Columns {
		if name != w.DatabaseTime && !slices.Contains(w.KeyColumns, name) {
			cols[i] = w.Table.Column(name)
		}
	}
	ceiling := j.opts.VarcharMaxBytes
	if ceiling <= 0 {
		ceiling = table.DefaultVarcharMaxBytes
	}
	n := 0
	for i, r := range rows {
		if r.Kind == engine.RowHardDelete {
			continue
		}
		for c, v := range r.Values {
			if cols[c] == nil || v == "" {
				continue
			}
			if msg := unfit(cols[c], v, ceiling); msg != "" {
				skip[src[i]] = msg + fmt.Sprintf(" (schema_evolution %s does not widen the column)", p.cfg.SchemaEvolution)
				n++
				break
			}
		}
	}
	return n
}

// unfit says why column c cannot hold v without a widening, in the words
// of the server's error for such a value, or "" when it fits.
func unfit(c *table.Column, v string, ceiling int) string {
	var st table.Stats
	t := c.Type
	switch t.Kind {
	case table.KindVarchar:
		st.MaxBytes, st.MaxChars = len(v), utf8.RuneCountInString(v)
		if t.National {
			st.MaxChars = utf16Units(v)
		}
		if table.Fit(t, st, ceiling) != t {
			n := st.MaxBytes
			if t.CharSemantics || t.National {
				n = st.MaxChars
			}
			return fmt.Sprintf("ORA-12899: value too large for column %q (actual: %d, maximum: %d)", c.Name, n, t.Length)
		}
	case table.KindNumber:
		_, info, err := value.CanonicalNumber(v)
		if err != nil {
			return ""
		}
		st.MaxIntDigits, st.MaxScale = info.IntDigits, info.Scale
		if table.Fit(t, st, ceiling) != t {
			return fmt.Sprintf("ORA-01438: value %s larger than specified precision allowed for column %q", v, c.Name)
		}
	case table.KindTimestamp:
		st.MaxFrac = fracDigits(v)
		if table.Fit(t, st, ceiling) != t {
			return fmt.Sprintf("ORA-01830: %s has %d fractional second digits, column %q keeps %d", v, st.MaxFrac, c.Name, t.Frac)
		}
	}
	return ""
}

func utf16Units(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}

// fracDigits counts the fractional second digits of a canonical date-time.
func fracDigits(ts string) int {
	i := strings.IndexByte(ts, '.')
	if i < 0 {
		return 0
	}
	n := 0
	for j := i + 1; j < len(ts) && ts[j] >= '0' && ts[j] <= '9'; j++ {
		n++
	}
	return n
}

// writeRefused appends a finished batch's refused records to reject_path
// and counts them; the tracker syncs the file before the next state line.
// It runs on the coordinator, which owns the file.
func (p *pipeline) writeRefused(j *job) error {
	for _, r := range j.refused {
		line, err := json.Marshal(struct {
			Line   int64           `json:"line"`
			Stream string          `json:"stream"`
			Error  string          `json:"error"`
			Record json.RawMessage `json:"record"`
		}{r.line, j.stream.name, r.err, json.RawMessage(r.record)})
		if err != nil {
			return fmt.Errorf("encode refused record: %w", err)
		}
		if err := p.rejects.write(append(line, '\n')); err != nil {
			return err
		}
		p.keepKey(j.stream, &singer.Message{Type: singer.TypeRecord, Line: r.line, Stream: j.stream.name, Record: r.record})
		j.stream.rejected++
		p.dbRejected++
		p.metrics.Rejected(j.stream.name)
		p.log.Warn("rejecting a record the database refused", "stream", j.stream.name, "line", r.line, "err", r.err, "reject_path", p.cfg.RejectPath)
	}
	j.refused = nil
	return nil
}

// reconcileRejecting is table.Reconcile for a batch under
// on_database_error: reject: when schema_evolution refuses a change the
// batch's values need, the table is kept as it is (noWiden) and the rows
// that do not fit are refused instead; a change the schema itself needs
// is still refused.
func (p *pipeline) reconcileRejecting(cur, want *table.Table, stats []table.Stats, opts table.Options) (*table.Table, []table.Change, bool, error) {
	next, changes, err := table.Reconcile(cur, want, stats, p.cfg.SchemaEvolution, opts)
	var ee *table.EvolutionError
	if err == nil || !p.rejectingRows() || stats == nil || !errors.As(err, &ee) {
		return next, changes, false, err
	}
	next, changes, err2 := table.Reconcile(cur, want, nil, p.cfg.SchemaEvolution, opts)
	if err2 != nil {
		return nil, nil, false, err
	}
	return next, changes, true, nil
}
