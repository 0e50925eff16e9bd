package fake

import (
	"context"
	"database/sql"
	"slices"
	"strconv"
	"strings"

	"github.com/target-oracle/target-oracle/internal/oraclesql"
)

// The server facts a wire front end is asked at connect (internal/connect's
// probes and --check's), answered as a 19c Enterprise Edition database
// with the fake's options would: COMPATIBLE 19.0.0, MAX_STRING_SIZE
// EXTENDED when Options.MaxStringBytes is over 4000, no BOOLEAN or JSON
// type, not an Autonomous Database, the privileges a loading user is
// given (CREATE SESSION, CREATE TABLE, UNLIMITED TABLESPACE), default
// tablespace USERS. The direct
// route never sees these: internal/connect runs them on *sql.Conn.

// probeAnswer is one probe's result: columns and rows, or an ORA error.
type probeAnswer struct {
	rows [][]sql.NullString
	code int
	msg  string
}

func text(vals ...string) []sql.NullString {
	out := make([]sql.NullString, len(vals))
	for i, v := range vals {
		out[i] = sql.NullString{String: v, Valid: v != ""}
	}
	return out
}

// probe answers a probe query, when st is one.
func (db *DB) probe(st *oraclesql.Statement, args []any) (probeAnswer, bool) {
	q := st.SQL
	extended := db.o.MaxStringBytes > 4000
	charset := db.o.Charset
	if charset == "" {
		charset = "AL32UTF8"
	}
	switch {
	case q == oraclesql.ProbeServer().SQL:
		return probeAnswer{rows: [][]sql.NullString{text(db.o.Schema, db.o.Schema, "19.0.0.0.0", charset, "AL16UTF16")}}, true
	case strings.HasPrefix(q, "SELECT MAX(PCV.PRODUCT) AS PRODUCT"):
		row := text("Oracle Database 19c Enterprise Edition")
		if strings.Contains(q, "VERSION_FULL") {
			row = text("Oracle Database 19c Enterprise Edition", "19.3.0.0.0")
		}
		return probeAnswer{rows: [][]sql.NullString{row}}, true
	case strings.Contains(q, " FROM V$PARAMETER PAR "):
		size := "STANDARD"
		if extended {
			size = "EXTENDED"
		}
		return probeAnswer{rows: [][]sql.NullString{text("compatible", "19.0.0"), text("max_string_size", size)}}, true
	case strings.Contains(q, " FROM DATABASE_COMPATIBLE_LEVEL "):
		return probeAnswer{rows: [][]sql.NullString{text("19.0.0")}}, true
	case strings.HasPrefix(q, "SELECT SYS_CONTEXT('USERENV', 'CLOUD_SERVICE')"):
		return probeAnswer{rows: [][]sql.NullString{text("", "FREEPDB1")}}, true
	case q == oraclesql.ProbeLongIdentifiers().SQL:
		return probeAnswer{rows: [][]sql.NullString{text("1")}}, true
	case q == oraclesql.ProbeExtendedStrings().SQL:
		if !extended {
			return probeAnswer{code: 910, msg: "specified length too long for its datatype"}, true
		}
		return probeAnswer{rows: [][]sql.NullString{text("")}}, true
	case q == oraclesql.ProbeStringBind().SQL:
		s, _ := first(args).(string)
		if len(s) > db.o.MaxStringBytes {
			return probeAnswer{code: 997, msg: "illegal use of LONG datatype"}, true
		}
		return probeAnswer{rows: [][]sql.NullString{text(strconv.Itoa(len(s)))}}, true
	case q == oraclesql.ProbeBoolean().SQL, q == oraclesql.ProbeJSONType().SQL:
		return probeAnswer{code: 902, msg: "invalid datatype"}, true
	case q == oraclesql.ProbePrivileges().SQL:
		return probeAnswer{rows: [][]sql.NullString{text("CREATE SESSION"), text("CREATE TABLE"), text("UNLIMITED TABLESPACE")}}, true
	case q == oraclesql.ProbeQuotas().SQL:
		return probeAnswer{}, true
	case q == "SELECT UU.DEFAULT_TABLESPACE FROM USER_USERS UU": // connect.probeDefaultTablespace (--check)
		return probeAnswer{rows: [][]sql.NullString{text("USERS")}}, true
	case q == oraclesql.ProbeSchema("").SQL:
		s, _ := first(args).(string)
		if db.userExists(s) {
			return probeAnswer{rows: [][]sql.NullString{text(s)}}, true
		}
		return probeAnswer{}, true
	}
	return probeAnswer{}, false
}

func first(args []any) any {
	if len(args) == 0 {
		return nil
	}
	return args[0]
}

// userExists reports whether ALL_USERS lists s: the login schema,
// Options.Schemas, or a table's owner. Callers hold db.mu.
func (db *DB) userExists(s string) bool {
	return s == db.o.Schema || slices.Contains(db.o.Schemas, s) || db.hasSchema(s)
}

// hasSchema reports a schema that owns a table. Callers hold db.mu.
func (db *DB) hasSchema(s string) bool {
	for q := range db.tables {
		if strings.HasPrefix(q, s+".") {
			return true
		}
	}
	return false
}

// queryProbe runs a probe as a query call (faults at OpQuery apply).
func (s *WireSession) queryProbe(ctx context.Context, st *oraclesql.Statement, args []any) ([][]sql.NullString, bool, error) {
	db := s.db
	db.mu.Lock()
	defer db.mu.Unlock()
	a, ok := db.probe(st, args)
	if !ok {
		return nil, false, nil
	}
	if err := s.c.usable(ctx); err != nil {
		return nil, true, err
	}
	if f := db.fault(OpQuery); f != nil {
		return nil, true, s.c.failWith(f, OpQuery)
	}
	db.log = append(db.log, st.SQL)
	if a.code != 0 {
		return nil, true, oraError(a.code, "%s", a.msg)
	}
	return a.rows, true, nil
}
