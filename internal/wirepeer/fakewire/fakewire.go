// Package fakewire puts the fake Oracle (internal/oracle/fake) behind the
// wire peer (internal/wirepeer): the statements the peer decodes from the
// real go-ora client run in the fake's SQL interpreter, so tests through
// the peer are not hand-scripted. The bind values the peer decoded are
// handed to the fake as the Go types the engine binds (the fake measures
// and checks them as for a direct call), and the fake's answers and
// errors go back as a server's: ORA errors, batch errors with row
// offsets, lost connections as a hang-up.
//
// It is test code, like the peer: only _test.go files import it.
package fakewire

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	go_ora "github.com/sijms/go-ora/v2"
	"github.com/sijms/go-ora/v2/network"

	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/wirepeer"
)

// Backend returns a wirepeer.Backend that opens a fake session per
// connection.
func Backend(db *fake.DB) wirepeer.Backend { return backend{db: db} }

type backend struct{ db *fake.DB }

func (b backend) Open(ctx context.Context, _ int) (wirepeer.BackendSession, error) {
	s, err := b.db.OpenWire(ctx)
	if err != nil {
		return nil, wireError(err)
	}
	return &session{s: s}, nil
}

type session struct{ s *fake.WireSession }

func (s *session) Run(ctx context.Context, st *wirepeer.Statement) (*wirepeer.Result, error) {
	fst := fake.Statement(st.SQL, len(st.Binds), st.Query)
	args, err := Args(st, fst.Kind == oraclesql.KindDML)
	if err != nil {
		return nil, err
	}
	if st.Query {
		cols, rows, err := s.s.Query(ctx, &fst, args)
		if err != nil {
			return nil, s.fail(err)
		}
		return &wirepeer.Result{Columns: cols, Data: rows}, nil
	}
	n, rowErrs, err := s.s.Exec(ctx, &fst, args, st.AutoCommit)
	if err != nil && st.BatchErrors && len(rowErrs) > 0 && !s.s.Lost() {
		res := &wirepeer.Result{RowsAffected: n}
		for _, re := range rowErrs {
			var oe *network.OracleError
			if !errors.As(re.Err, &oe) {
				return nil, re.Err
			}
			res.RowErrors = append(res.RowErrors, wirepeer.RowError{Row: re.Row, Code: oe.ErrCode, Msg: message(oe)})
		}
		return res, nil
	}
	if err != nil {
		return nil, s.fail(err)
	}
	return &wirepeer.Result{RowsAffected: n}, nil
}

func (s *session) Commit(ctx context.Context) error   { return s.fail(s.s.Commit(ctx)) }
func (s *session) Rollback(ctx context.Context) error { return s.fail(s.s.Rollback(ctx)) }
func (s *session) Close() error                       { return s.s.Close() }

// fail maps a fake error, and a session the fake lost, to the peer's.
func (s *session) fail(err error) error {
	if err == nil {
		return nil
	}
	if s.s.Lost() {
		return wirepeer.ErrLost
	}
	if fake.IsProtocolFault(err) {
		return wirepeer.ErrProtocol
	}
	return wireError(err)
}

func wireError(err error) error {
	var oe *network.OracleError
	switch {
	case fake.IsLost(err):
		return wirepeer.ErrLost
	case fake.IsProtocolFault(err):
		return wirepeer.ErrProtocol
	case errors.As(err, &oe):
		return &wirepeer.ServerError{Code: oe.ErrCode, Msg: message(oe)}
	}
	return err
}

// message is an ORA error's text without its "ORA-nnnnn: " prefix.
func message(oe *network.OracleError) string {
	return strings.TrimPrefix(oe.ErrMsg, fmt.Sprintf("ORA-%05d: ", oe.ErrCode))
}

// Args turns the decoded binds of an execute into the Go values the
// engine binds: per bind a slice over the rows (array, for DML) or the
// first row's value. VARCHAR and LONG binds are []sql.NullString (string),
// national ones []go_ora.NVarChar (go_ora.NVarChar), CLOB and NCLOB
// locators []go_ora.Clob and []go_ora.NClob with the temporary LOB's text.
func Args(st *wirepeer.Statement, array bool) ([]any, error) {
	args := make([]any, len(st.Binds))
	for i, b := range st.Binds {
		col := make([]wirepeer.Value, len(st.Rows))
		for r, row := range st.Rows {
			col[r] = row[i]
		}
		if !array && len(col) > 1 {
			col = col[:1]
		}
		a, err := arg(b, col, array)
		if err != nil {
			return nil, fmt.Errorf("bind %d: %w", i+1, err)
		}
		args[i] = a
	}
	return args, nil
}

func arg(b wirepeer.Bind, vals []wirepeer.Value, array bool) (any, error) {
	national := b.CSForm == 2
	switch {
	case b.Type == wirepeer.TypeVarchar || b.Type == wirepeer.TypeLong || b.Type == wirepeer.TypeLongVarchar:
		if national {
			out := make([]go_ora.NVarChar, len(vals))
			for i, v := range vals {
				out[i] = go_ora.NVarChar(v.Text)
			}
			if !array {
				return first(out), nil
			}
			return out, nil
		}
		out := make([]sql.NullString, len(vals))
		for i, v := range vals {
			out[i] = sql.NullString{String: v.Text, Valid: !v.Null}
		}
		if !array {
			if len(out) == 0 || !out[0].Valid {
				return nil, nil
			}
			return out[0].String, nil
		}
		return out, nil
	case b.Type == wirepeer.TypeCLOB && national:
		out := make([]go_ora.NClob, len(vals))
		for i, v := range vals {
			out[i] = go_ora.NClob{String: v.Text, Valid: !v.Null}
		}
		if !array {
			return first(out), nil
		}
		return out, nil
	case b.Type == wirepeer.TypeCLOB:
		out := make([]go_ora.Clob, len(vals))
		for i, v := range vals {
			out[i] = go_ora.Clob{String: v.Text, Valid: !v.Null}
		}
		if !array {
			return first(out), nil
		}
		return out, nil
	case b.Type == wirepeer.TypeRaw || b.Type == wirepeer.TypeLongRaw || b.Type == wirepeer.TypeLongVarRaw:
		out := make([][]byte, len(vals)) // nil is NULL, as the engine binds it
		for i, v := range vals {
			if !v.Null {
				out[i] = append([]byte{}, v.Bytes...)
			}
		}
		if !array {
			return first(out), nil
		}
		return out, nil
	case b.Type == wirepeer.TypeBLOB:
		out := make([]go_ora.Blob, len(vals))
		for i, v := range vals {
			if !v.Null {
				out[i] = go_ora.Blob{Data: []byte(v.Text)}
			}
		}
		if !array {
			return first(out), nil
		}
		return out, nil
	}
	return nil, fmt.Errorf("bind type %d (form %d) not served by the fake's adapter", b.Type, b.CSForm)
}

func first[T any](s []T) any {
	if len(s) == 0 {
		return nil
	}
	return s[0]
}
