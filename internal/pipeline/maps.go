package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/singer"
	"github.com/target-oracle/target-oracle/internal/streammap"
)

// Stream maps (SPEC §4.1) sit between the reader and the streams: each
// input stream's SCHEMA is mapped once to its output streams, and each
// RECORD is mapped (or filtered) before it reaches them. Without
// stream_maps the messages go straight through.

// inputStream is an input stream under stream maps.
type inputStream struct {
	ident []byte // identity of its last SCHEMA
	maps  []*streammap.StreamMap
}

// compileMaps compiles stream_maps once per run; an expression that does
// not compile is a configuration error.
func compileMaps(cfg *config.Config) (*streammap.Mapper, error) {
	m, err := streammap.Compile(cfg.StreamMaps, cfg.StreamMapConfig)
	if err != nil {
		return nil, mapConfigError(err, 0)
	}
	return m, nil
}

// watchMaps stops a running stream-map evaluation at the first signal
// (Options.Stop) or the hard stop (SPEC §7.5): the coordinator may be in
// the middle of a long expression, where it does not look at either. The
// goroutine ends with the run (workCtx).
func (p *pipeline) watchMaps() {
	if p.maps.Empty() {
		return
	}
	go p.maps.CancelOn(p.workCtx.Done(), p.o.Stop)
}

// mapConfigError makes a stream map that does not compile, or does not fit
// the SCHEMA on line (0: found at start), a configuration error naming
// the setting, the line, the stream and the property once each.
func mapConfigError(err error, line int64) error {
	var ce *streammap.ConfigError
	if !errors.As(err, &ce) {
		return err
	}
	msg := ce.Detail()
	if line > 0 {
		msg = fmt.Sprintf("line %d: %s", line, msg)
	}
	return &config.Error{Key: "stream_maps", Msg: msg}
}

// mapEvalError is a stream map's *streammap.EvalError inside an
// inputerr.Error, which names the stream and property itself: its text is
// the rest (EvalError.Detail).
type mapEvalError struct{ ee *streammap.EvalError }

func (e *mapEvalError) Error() string { return e.ee.Detail() }
func (e *mapEvalError) Unwrap() error { return e.ee }

func (p *pipeline) onSchema(m *singer.Message) error {
	if p.maps.Empty() {
		return p.onStreamSchema(m)
	}
	ident, err := schemaIdentity(m)
	if err != nil {
		return &inputerr.Error{Line: m.Line, Stream: m.Stream, Msg: "invalid schema", Err: err}
	}
	in := p.inputs[m.Stream]
	if in != nil && bytes.Equal(in.ident, ident) {
		return nil // an identical repeat is a no-op
	}
	keys := m.KeyProperties
	if !m.HasKeyProperties {
		keys = nil
	}
	maps, err := p.maps.Schema(m.Stream, m.Schema, keys)
	if err != nil {
		if err := mapConfigError(err, m.Line); errors.As(err, new(*config.Error)) {
			return err
		}
		return &inputerr.Error{Line: m.Line, Stream: m.Stream, Msg: "stream map", Err: err}
	}
	if in == nil {
		in = &inputStream{}
		p.inputs[m.Stream] = in
	}
	if err := p.feedsAgree(m, maps); err != nil {
		return err
	}
	in.ident, in.maps = ident, maps
	for _, sm := range maps {
		out := *m
		out.Stream, out.Schema, out.KeyProperties, out.HasKeyProperties = sm.Output, p.joinedSchema(sm.Output, m.Stream, sm.Schema), sm.Keys, len(sm.Keys) > 0
		if err := p.ownProperties(m, sm, out.Schema); err != nil {
			return err
		}
		p.mapInput = m.Stream // the SCHEMA's checks name it (namedInput, job.schemaInput)
		err := p.onStreamSchema(&out)
		p.mapInput = ""
		if err != nil {
			return namedInput(err, m.Stream, sm.Output)
		}
	}
	return nil
}

// ownProperties refuses an input stream's mapped schema without properties
// (SPEC §4: invalid input unless the stream's storage mode is json) when
// the join with the other inputs aliased into its output stream gave it
// some (joined differs from sm.Schema): onStreamSchema sees only the join,
// and so accepted what table_name_mappings into one table refuses.
func (p *pipeline) ownProperties(m *singer.Message, sm *streammap.StreamMap, joined []byte) error {
	if bytes.Equal(joined, sm.Schema) {
		return nil // onStreamSchema checks this schema itself
	}
	own, err := p.schemas.Compile(sm.Schema)
	if err != nil || own.Root.HasProperties {
		return nil // an invalid schema is onStreamSchema's to report
	}
	mode := p.cfg.ForStream(sm.Output).StorageMode
	if s := p.streams[sm.Output]; s != nil {
		mode = s.settings.StorageMode
	}
	if mode == config.StorageJSON {
		return nil
	}
	return &inputerr.Error{Line: m.Line, Stream: m.Stream,
		Msg: fmt.Sprintf("schema has no properties (stream map output %q; set storage_mode json for that stream to load such records as documents)", sm.Output)}
}

// feed is an input stream mapped into an output stream (__alias__), with
// the keys it gives it.
type feed struct {
	input  string
	keys   []string
	schema []byte // its latest output schema (mapsjoin.go)
}

// feedsAgree checks that input streams aliased into one output stream, and
// so into one table, give it the same keys (SPEC §4: their keys must
// agree; switching between them is not a change). Without it their
// SCHEMAs were one stream's key change, silently applied on an empty
// table. It records the SCHEMA's keys once they agree.
func (p *pipeline) feedsAgree(m *singer.Message, maps []*streammap.StreamMap) error {
	if p.feeds == nil {
		p.feeds = map[string][]feed{}
	}
	for _, sm := range maps {
		for _, f := range p.feeds[sm.Output] {
			if f.input == m.Stream || slices.Equal(f.keys, sm.Keys) {
				continue
			}
			where := fmt.Sprintf("stream %q", sm.Output)
			if s := p.streams[sm.Output]; s != nil && s.layout != nil {
				where = fmt.Sprintf("table %s (stream %q)", s.layout.Table().QualifiedName(), sm.Output)
			}
			return &inputerr.Error{Line: m.Line, Stream: m.Stream, Msg: fmt.Sprintf(
				"streams %q (key_properties %v) and %q (key_properties %v) both load into %s: their keys must agree",
				f.input, keysText(f.keys), m.Stream, keysText(sm.Keys), where)}
		}
	}
	for _, sm := range maps {
		fs := p.feeds[sm.Output]
		i := slices.IndexFunc(fs, func(f feed) bool { return f.input == m.Stream })
		if i < 0 {
			fs = append(fs, feed{input: m.Stream})
			i = len(fs) - 1
		}
		fs[i].keys, fs[i].schema = slices.Clone(sm.Keys), sm.Schema
		p.feeds[sm.Output] = fs
	}
	return nil
}

// keysText prints a key list as keysAgree does: [] for none.
func keysText(keys []string) []string {
	if keys == nil {
		return []string{}
	}
	return keys
}

func (p *pipeline) onRecord(m *singer.Message) error {
	s := p.byName.lookup(p.streams, m.Stream) // streamcache.go
	if !p.takesOnePass(s, m) {
		if err := m.DecodeRecord(nil); err != nil {
			return err // not counted: no record was read
		}
	}
	if p.maps.Empty() {
		return p.onRecordOf(s, m)
	}
	in := p.inputs[m.Stream]
	if in == nil {
		return &inputerr.Error{Line: m.Line, Stream: m.Stream, Msg: "RECORD before any SCHEMA for this stream"}
	}
	for _, sm := range in.maps {
		// A signal already given (a closed Stop, a cancelled context) stops
		// here, before the evaluation: watchMaps cancels the Mapper on its
		// own goroutine, which may not have run yet (GOMAXPROCS=1, GOGC=1),
		// and an evaluation entered before it did ran to its end and was
		// loaded. Only mapped streams pay this check.
		if ierr := p.interrupted(); ierr != nil {
			return ierr
		}
		rec, keep, err := sm.Apply(m.Record)
		if errors.Is(err, streammap.ErrCancelled) {
			// A signal stopped the evaluation (watchMaps): the record is
			// not taken, nor is any after it.
			if ierr := p.interrupted(); ierr != nil {
				return ierr
			}
			return err
		}
		if err != nil {
			var ee *streammap.EvalError
			ie := &inputerr.Error{Line: m.Line, Stream: m.Stream, Err: err}
			if errors.As(err, &ee) {
				ie.Property, ie.Err = ee.Property, &mapEvalError{ee}
			}
			if s := p.streams[sm.Output]; s != nil {
				if err := p.invalid(s, m, ie); err != nil {
					return err
				}
				continue
			}
			return ie
		}
		if !keep {
			continue // filtered out: like a skipped record, it holds no state back
		}
		out := *m
		out.Stream, out.Record = sm.Output, rec
		p.mapInput = m.Stream
		err = p.onStreamRecord(&out)
		p.mapInput = ""
		if err != nil {
			return namedInput(err, m.Stream, sm.Output)
		}
	}
	return nil
}

// namedInput makes an input error about a record of input stream input,
// mapped into output stream output, name the input stream, as the input's
// line does, with the output stream beside it: `stream "s2" (output
// "s0")`. A user looking for stream "s0" at that line would find "s2".
// An input "" (not known, or the stream's own record) leaves err as it is.
func namedInput(err error, input, output string) error {
	var ie *inputerr.Error
	if input != "" && input != output && errors.As(err, &ie) && ie.Stream == output && ie.Output == "" {
		ie.Stream, ie.Output = input, output
	}
	return err
}

func (p *pipeline) onActivateVersion(m *singer.Message) error {
	if p.maps.Empty() {
		return p.onStreamActivateVersion(m)
	}
	in := p.inputs[m.Stream]
	if in == nil {
		p.log.Warn("ignoring ACTIVATE_VERSION for a stream without SCHEMA", "stream", m.Stream, "line", m.Line)
		return nil
	}
	for _, sm := range in.maps {
		out := *m
		out.Stream = sm.Output
		p.mapInput = m.Stream // the sender, not its own sharer (onStreamActivateVersion)
		err := p.onStreamActivateVersion(&out)
		p.mapInput = ""
		if err != nil {
			return fmt.Errorf("stream %q: %w", sm.Output, err)
		}
	}
	return nil
}
