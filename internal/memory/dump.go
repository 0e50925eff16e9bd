package memory

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/target-oracle/target-oracle/internal/table"
)

// writeDump writes the dry-run dump of SPEC §11 into dir, replacing it.
// The caller holds e.mu.
func (e *Engine) writeDump(dir string) error {
	if err := CheckDumpDir(dir); err != nil {
		return err
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("dump: replace %s: %w", dir, err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "tables"), 0o755); err != nil {
		return fmt.Errorf("dump: %w", err)
	}
	if err := e.writeTablesJSON(filepath.Join(dir, "tables.json")); err != nil {
		return err
	}
	// One writer serves every table: a megabyte each was 10 GB allocated
	// and cleared for a dump of 10,000 tables, most of its time.
	w := bufio.NewWriterSize(nil, 1<<20) // 4 KiB writes were a tenth of a 400,000-row dump's time
	for name, t := range e.tables {
		if err := writeRows(filepath.Join(dir, "tables", DumpFileName(name)), t, w); err != nil {
			return err
		}
	}
	if e.opts.Render != nil {
		if err := e.writeStatements(filepath.Join(dir, "statements.sql"), w); err != nil {
			return err
		}
	}
	return nil
}

type dumpColumn struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Nullable bool   `json:"nullable"`
}

type dumpTable struct {
	Columns      []dumpColumn     `json:"columns"`
	PrimaryKey   []string         `json:"primary_key"`
	Partitioning *table.Partition `json:"partitioning,omitempty"`
	Compression  string           `json:"compression,omitempty"`
	// File names the rows' file (tables/…) where it is not SCHEMA.TABLE.jsonl:
	// a name %XX-written or cut to fit the file system (DumpFileName), which a
	// reader of the dump could not work out from the table's name alone.
	File string `json:"file,omitempty"`
}

func (e *Engine) writeTablesJSON(path string) error {
	names := make([]string, 0, len(e.tables))
	for name := range e.tables {
		names = append(names, name)
	}
	sort.Strings(names)
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("dump: %w", err)
	}
	// Written table by table, as encoding/json writes the whole map
	// (sorted keys, two-space indent): one document of 10,000 tables held
	// at once was tens of MB at the end of the run.
	w := bufio.NewWriterSize(f, 1<<16)
	var entry bytes.Buffer
	enc := json.NewEncoder(&entry)
	enc.SetEscapeHTML(false)
	enc.SetIndent("  ", "  ")
	w.WriteString("{")
	for i, name := range names {
		t := e.tables[name]
		dt := dumpTable{Columns: []dumpColumn{}, PrimaryKey: append([]string{}, t.def.PrimaryKey...),
			Partitioning: t.def.Partition, Compression: t.def.Compression}
		if f := DumpFileName(name); f != name+".jsonl" {
			dt.File = "tables/" + f
		}
		for _, c := range t.def.Columns {
			dt.Columns = append(dt.Columns, dumpColumn{Name: c.Name, Type: c.Type.String(), Nullable: c.Nullable})
		}
		if i > 0 {
			w.WriteString(",")
		}
		key, err := marshal(name, false)
		if err != nil {
			f.Close()
			return fmt.Errorf("dump tables.json: %w", err)
		}
		w.WriteString("\n  ")
		w.Write(key)
		w.WriteString(": ")
		entry.Reset()
		if err := enc.Encode(dt); err != nil {
			f.Close()
			return fmt.Errorf("dump tables.json: %w", err)
		}
		w.Write(bytes.TrimSuffix(entry.Bytes(), []byte("\n")))
	}
	if len(names) > 0 {
		w.WriteString("\n")
	}
	w.WriteString("}\n")
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("dump: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("dump: %w", err)
	}
	return nil
}

// writeStatements writes the rendered SQL to path through w, each
// statement followed by a line "/", without gathering the file in memory.
func (e *Engine) writeStatements(path string, w *bufio.Writer) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("dump: %w", err)
	}
	w.Reset(f)
	for _, s := range e.statements {
		w.WriteString(s)
		w.WriteString("\n/\n")
	}
	err = w.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("dump: %w", err)
	}
	return nil
}

// writeRows writes t's rows to path through w, which it resets to the
// file.
func writeRows(path string, t *memTable, w *bufio.Writer) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("dump: %w", err)
	}
	w.Reset(f)
	rj := newRowWriter(t.def, w)
	err = t.eachDumped(func(r map[string]string, vals [][]byte) error {
		if r != nil {
			rj.row(r)
		} else {
			rj.values(vals)
		}
		return w.WriteByte('\n') // bufio's errors are sticky: this one reports any
	})
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		f.Close()
		return fmt.Errorf("dump %s: %w", path, err)
	}
	return f.Close()
}

// rowWriter renders rows in the dump's value formats, columns in table
// order. Column names are encoded once and one encoder serves every value:
// an encoder and a buffer per value made writing a 400,000-row table take
// most of the run. A row is gathered in buf and written to out whole,
// except that a value of bigValue bytes or more goes to out from where it
// is, so a 60 MB value is not copied into buf (SPEC §10).
type rowWriter struct {
	def   *table.Table
	names [][]byte // `"NAME":` per column
	out   *bufio.Writer
	buf   bytes.Buffer
	val   bytes.Buffer
	enc   *json.Encoder
}

func newRowWriter(def *table.Table, out *bufio.Writer) *rowWriter {
	w := &rowWriter{def: def, out: out}
	w.enc = json.NewEncoder(&w.val)
	w.enc.SetEscapeHTML(false)
	for _, c := range def.Columns {
		w.names = append(w.names, append(w.str(c.Name), ':'))
	}
	return w
}

// str encodes s as marshal(s, false) would, into a copy.
func (w *rowWriter) str(s string) []byte {
	return bytes.Clone(w.encode(s))
}

// encode encodes s as marshal(s, false) would; the bytes are valid until
// the next call. Printable ASCII without '"' or '\\' (most values) is
// quoted as it is, which is what the encoder writes for it.
func (w *rowWriter) encode(s string) []byte {
	w.val.Reset()
	if plainJSON(s) {
		w.val.WriteByte('"')
		w.val.WriteString(s)
		w.val.WriteByte('"')
		return w.val.Bytes()
	}
	_ = w.enc.Encode(s) // a string always encodes
	return bytes.TrimSuffix(w.val.Bytes(), []byte("\n"))
}

// row writes one row.
func (w *rowWriter) row(r map[string]string) {
	b := &w.buf
	b.Reset()
	b.WriteByte('{')
	for i, c := range w.def.Columns {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(w.names[i])
		w.value(c.Type, r[c.Name])
	}
	b.WriteByte('}')
	w.out.Write(b.Bytes())
}

// values is row for the values of a row in column order.
func (w *rowWriter) values(vals [][]byte) {
	b := &w.buf
	b.Reset()
	b.WriteByte('{')
	for i, c := range w.def.Columns {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(w.names[i])
		valueTo(w, c.Type, vals[i])
	}
	b.WriteByte('}')
	w.out.Write(b.Bytes())
}

func (w *rowWriter) value(t table.Type, v string) { valueTo(w, t, v) }

// valueTo writes one value in the dump's format: a string of a map row or
// the bytes of a spilled one, written alike.
func valueTo[T string | []byte](w *rowWriter, t table.Type, v T) {
	if len(v) == 0 {
		w.buf.WriteString("null")
		return
	}
	date := false
	switch t.Kind {
	case table.KindNumber, table.KindBoolean, table.KindJSON:
		// canonical plain decimal is a JSON number; true / false; compact
		// JSON as received
		if len(v) >= bigValue {
			w.putLong(v)
			return
		}
		w.buf.Write([]byte(v))
		return
	case table.KindDate:
		date = len(v) == len("2006-01-02")
	}
	if !plainJSON(v) {
		s := string(v)
		if date {
			s += "T00:00:00"
		}
		w.buf.Write(w.encode(s))
		return
	}
	w.buf.WriteByte('"')
	if len(v) >= bigValue {
		w.putLong(v)
	} else {
		w.buf.Write([]byte(v))
	}
	if date {
		w.buf.WriteString("T00:00:00")
	}
	w.buf.WriteByte('"')
}

// putLong writes the row so far and then v, a long value, to out from
// where it is: a string through WriteString, so that neither kind of value
// is copied whole on the way.
func (w *rowWriter) putLong(v any) {
	w.out.Write(w.buf.Bytes())
	w.buf.Reset()
	switch v := v.(type) {
	case string:
		w.out.WriteString(v)
	case []byte:
		w.out.Write(v)
	}
}

// plainJSON reports whether s needs no escape in a JSON string.
func plainJSON[T string | []byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// marshal encodes without HTML escaping, so that strings keep their bytes
// readable ("<" stays "<").
func marshal(v any, indent bool) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	out := b.Bytes()
	if !indent {
		out = bytes.TrimSuffix(out, []byte("\n"))
	}
	return out, nil
}

// DumpFileName is the file of a table's rows in the dump's tables/ folder:
// SCHEMA.TABLE.jsonl, with every byte of the name outside letters, digits
// and "._$#-" written as %XX. Names are the user's (table_name_mappings), so
// "/" or ".." must not reach the file system as a path. A name longer than
// a file name may be (255 bytes: two 128-byte identifiers and the dot, or
// %XX-written non-ASCII names, pass it) is cut, whole %XX sequences kept,
// and ends in "~" and the first 12 hex digits of the full name's SHA-256:
// "~" is written as %7E in every other name, so no two tables share a file.
func DumpFileName(qualified string) string {
	name := dumpName(qualified)
	const maxFile, ext = 255, ".jsonl"
	if len(name)+len(ext) <= maxFile {
		return name + ext
	}
	sum := sha256.Sum256([]byte(qualified))
	tail := "~" + hex.EncodeToString(sum[:6]) + ext
	cut := maxFile - len(tail)
	if i := strings.LastIndexByte(name[:cut], '%'); i >= 0 && i > cut-3 {
		cut = i // not inside a %XX
	}
	return name[:cut] + tail
}

func dumpName(qualified string) string {
	var b strings.Builder
	for i := 0; i < len(qualified); i++ {
		c := qualified[i]
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9', strings.IndexByte("._$#-", c) >= 0:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
