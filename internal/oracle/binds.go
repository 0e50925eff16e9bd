package oracle

import (
	"database/sql"
	"fmt"

	go_ora "github.com/sijms/go-ora/v2"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

// MaxArrayRowsLimit is the most rows one array execute may carry: go-ora
// v2.9.0 encodes a larger iteration count wrongly on re-execution.
const MaxArrayRowsLimit = 65535

// DefaultMaxArrayRows is the rows per array execute when Options leave it 0.
const DefaultMaxArrayRows = 10000

// DefaultMaxStringBytes is the longest value bound as VARCHAR with
// MAX_STRING_SIZE=STANDARD; EXTENDED servers take 32767.
const DefaultMaxStringBytes = 4000

// bindClass is the Go type a bind's values travel as. go-ora declares an
// array bind's type from its elements, so every element of one column has
// the same Go type (notes §2.2).
type bindClass uint8

const (
	bindString   bindClass = iota // []sql.NullString: VARCHAR, "" is NULL
	bindNVarChar                  // []go_ora.NullNVarChar: national VARCHAR
	bindClob                      // []go_ora.Clob: a temporary LOB per value
	bindNClob                     // []go_ora.NClob
)

// binder builds the arguments of one statement execute from stored values.
// Values other than timestamps are bound as the stored string itself (no
// copy); timestamps are converted with oraclesql.AppendBindText into one
// buffer per column and chunk, so a chunk costs a constant number of
// allocations per column.
type binder struct {
	maxString int
	buf       []byte
	ends      []int
}

// classOf chooses how a column is bound. A LOB column (CLOB, NCLOB, JSON)
// is bound as a LOB when one of its values is longer than a VARCHAR bind
// may be (a longer string would become a LONG bind, which a MERGE's SELECT
// list refuses), and when every value is NULL (go-ora needs a typed LOB
// NULL there); otherwise as VARCHAR, which costs no extra round trip. The
// renderer puts LOB columns last, where LOB binds must be.
//
// Once one column is bound as a LOB, every later LOB column is too: a
// VARCHAR bind after a LOB bind is what ORA-01461 reports (go-ora #156).
func (b *binder) classOf(t table.Type, maxLen int, allNull, afterLOB bool) bindClass {
	lob := t.IsLOB() && (maxLen > b.maxString || allNull || afterLOB)
	switch {
	case lob && t.National:
		return bindNClob
	case lob:
		return bindClob
	case t.National:
		return bindNVarChar
	}
	return bindString
}

// texts returns the bind texts of bind for rows (or of its fixed value
// repeated n times), with the longest length and whether all are NULL.
func (b *binder) texts(bd *oraclesql.Bind, rows []engine.Row, n int, dst []string) ([]string, int, bool, error) {
	if cap(dst) < n {
		dst = make([]string, 0, n)
	}
	dst = dst[:0]
	value := func(i int) (string, error) {
		if bd.Source == oraclesql.Fixed {
			return bd.Value, nil
		}
		v := rows[i].Values
		if bd.Index < 0 || bd.Index >= len(v) {
			return "", fmt.Errorf("bind %q: row of line %d has no value %d", bd.Column, rows[i].Line, bd.Index)
		}
		return v[bd.Index], nil
	}
	maxLen, allNull := 0, true
	if bd.Type.Kind != table.KindTimestamp {
		for i := 0; i < n; i++ {
			s, err := value(i)
			if err != nil {
				return nil, 0, false, err
			}
			dst = append(dst, s)
			maxLen, allNull = max(maxLen, len(s)), allNull && s == ""
		}
		return dst, maxLen, allNull, nil
	}
	b.buf, b.ends = b.buf[:0], b.ends[:0]
	for i := 0; i < n; i++ {
		s, err := value(i)
		if err != nil {
			return nil, 0, false, err
		}
		b.buf = oraclesql.AppendBindText(b.buf, bd.Type, s)
		b.ends = append(b.ends, len(b.buf))
	}
	all := string(b.buf) // one allocation for the column
	start := 0
	for _, end := range b.ends {
		s := all[start:end]
		dst = append(dst, s)
		maxLen, allNull = max(maxLen, len(s)), allNull && s == ""
		start = end
	}
	return dst, maxLen, allNull, nil
}

// arrayArgs returns one slice per bind of st for rows: an array execute.
func (b *binder) arrayArgs(st *oraclesql.Statement, rows []engine.Row) ([]any, error) {
	n := len(rows)
	args := make([]any, len(st.Binds))
	var scratch []string
	afterLOB := false
	for j := range st.Binds {
		bd := &st.Binds[j]
		texts, maxLen, allNull, err := b.texts(bd, rows, n, scratch)
		if err != nil {
			return nil, err
		}
		c := b.classOf(bd.Type, maxLen, allNull, afterLOB)
		afterLOB = afterLOB || c == bindClob || c == bindNClob
		args[j] = column(c, texts)
		scratch = texts
	}
	return args, nil
}

// scalarArgs returns the scalar arguments of a statement whose binds are
// all fixed (DDL, session setup, version cleanup, migration chunks).
func (b *binder) scalarArgs(st *oraclesql.Statement) ([]any, error) {
	args := make([]any, len(st.Binds))
	afterLOB := false
	for j := range st.Binds {
		bd := &st.Binds[j]
		if bd.Source != oraclesql.Fixed {
			return nil, fmt.Errorf("bind %q of a statement without rows takes its value from a row", bd.Column)
		}
		s := oraclesql.BindText(bd.Type, bd.Value)
		c := b.classOf(bd.Type, len(s), s == "", afterLOB)
		afterLOB = afterLOB || c == bindClob || c == bindNClob
		args[j] = scalar(c, s)
	}
	return args, nil
}

// column converts texts into the slice type of class c.
func column(c bindClass, texts []string) any {
	switch c {
	case bindNVarChar:
		out := make([]go_ora.NullNVarChar, len(texts))
		for i, s := range texts {
			out[i] = go_ora.NullNVarChar{NVarChar: go_ora.NVarChar(s), Valid: s != ""}
		}
		return out
	case bindClob:
		out := make([]go_ora.Clob, len(texts))
		for i, s := range texts {
			out[i] = go_ora.Clob{String: s, Valid: s != ""}
		}
		return out
	case bindNClob:
		out := make([]go_ora.NClob, len(texts))
		for i, s := range texts {
			out[i] = go_ora.NClob{String: s, Valid: s != ""}
		}
		return out
	}
	out := make([]sql.NullString, len(texts))
	for i, s := range texts {
		out[i] = sql.NullString{String: s, Valid: s != ""}
	}
	return out
}

func scalar(c bindClass, s string) any {
	switch c {
	case bindNVarChar:
		return go_ora.NullNVarChar{NVarChar: go_ora.NVarChar(s), Valid: s != ""}
	case bindClob:
		return go_ora.Clob{String: s, Valid: s != ""}
	case bindNClob:
		return go_ora.NClob{String: s, Valid: s != ""}
	}
	return sql.NullString{String: s, Valid: s != ""}
}
