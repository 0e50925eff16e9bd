package oracle

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/sijms/go-ora/v2/network"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oravalue"
)

// ErrCommitUnknown is wrapped by the error of a batch whose COMMIT lost the
// connection: the batch may or may not be durable. The engine retries such
// a batch only when it is idempotent (MERGE and DELETE); an append-only
// batch (INSERT) fails with this error, so that the run writes no newer
// state (SPEC §6.3, §7.6: the re-run may repeat those rows).
var ErrCommitUnknown = errors.New("connection lost during COMMIT: the batch may or may not be committed")

// Error is a database error on one table (SPEC §6.3): the ORA code, the
// table, and for a row error the input line of the failing record.
type Error struct {
	Table string // SCHEMA.TABLE
	Line  int64  // input line of the failing record; 0 when not a row error or not found
	Code  int    // ORA error number; 0 when the error has none
	Err   error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Table)
	if e.Line > 0 {
		b.WriteString(": line ")
		b.WriteString(strconv.FormatInt(e.Line, 10))
	}
	b.WriteString(": ")
	msg := e.Err.Error()
	if code := fmt.Sprintf("ORA-%05d", e.Code); e.Code != 0 && !strings.Contains(msg, code) {
		b.WriteString(code)
		b.WriteString(": ")
	}
	b.WriteString(msg)
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

var _ engine.LineError = (*Error)(nil)

// InputLine implements engine.LineError: the failing record's input
// line, 0 when not a row error or not found.
func (e *Error) InputLine() int64 { return e.Line }

// oraCode returns the ORA error number carried by err, or 0.
func oraCode(err error) int {
	var oe *network.OracleError
	if errors.As(err, &oe) {
		return oe.ErrCode
	}
	return 0
}

// Transient ORA errors (SPEC §6.3): the whole batch (or DDL) is retried
// on a fresh session.
var transientCodes = map[int]bool{
	54:    true, // resource busy and acquire with NOWAIT specified or timeout expired
	60:    true, // deadlock detected while waiting for resource
	3113:  true, // end-of-file on communication channel
	3114:  true, // not connected to ORACLE
	3135:  true, // connection lost contact
	12170: true, // TNS: connect timeout occurred
	12541: true, // TNS: no listener
	12537: true, // TNS: connection closed
	12528: true, // TNS: listener: all appropriate instances are blocking new connections
	1033:  true, // ORACLE initialization or shutdown in progress
	1034:  true, // ORACLE not available
	1089:  true, // immediate shutdown or close in progress
	// A busy server, not a broken request: the same call succeeds once
	// other sessions are done. The listener refuses a connect with
	// 12516/12519/12520 when the instance is at its PROCESSES limit
	// (go-ora returns the refusal's CODE as the OracleError,
	// network/refuse_packet.go:65-88), the logon fails with 18/20; a DDL
	// that waits too long for a library-cache lock fails with 4021
	// ("Retry the operation later"), a LOCK TABLE … WAIT n with 30006.
	18:    true, // maximum number of sessions exceeded
	20:    true, // maximum number of processes exceeded
	4021:  true, // timeout occurred while waiting to lock object
	12516: true, // TNS: listener could not find available handler with matching protocol stack
	12519: true, // TNS: no appropriate service handler found
	12520: true, // TNS: listener could not find available handler for requested type of server
	30006: true, // resource busy; acquire with WAIT timeout expired
}

// protocolCodes are the ORA errors of go-ora protocol bugs open at v2.9.0:
// the server refused a packet go-ora built (#697: ORA-03146 / ORA-03137,
// reported with LOBs over 50 KB; #724: "Bad TTC Packet Detected" in the
// alert log and ORA-03120 on 19c RAC/PDB). The session is not trusted
// after them: it is dropped and the chunk retried, in halves on repeat.
var protocolCodes = map[int]bool{
	3120: true, // two-task conversion routine: integer overflow
	3137: true, // malformed TTC packet from client rejected
	3146: true, // invalid buffer length for TTC field
}

// protocolError reports whether err is one of go-ora's protocol failures:
// an ORA code of protocolCodes, or one of the errors go-ora makes itself
// when it cannot read the server's reply ("TTC error: received code %d
// during response reading", "TTC Error" in lob.go, "receive abnormal packet
// type %d instead of data packet" in network/session.go). Those carry no
// ORA code; they match by text because go-ora builds them with
// errors.New.
func protocolError(err error) bool {
	if protocolCodes[oraCode(err)] {
		return true
	}
	var oe *network.OracleError
	if err == nil || errors.As(err, &oe) {
		return false
	}
	msg := err.Error()
	return strings.Contains(msg, "TTC error") || strings.Contains(msg, "TTC Error") || strings.Contains(msg, "receive abnormal packet type")
}

// connectionLost reports whether err means the session is gone: after it,
// a transaction in progress is lost and the outcome of a COMMIT in flight
// is unknown. A go-ora protocol failure counts: what the session holds
// after it is unknown.
func connectionLost(err error) bool {
	if errors.Is(err, errAbandoned) {
		return true // its call still holds it (sqlConn.guard)
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false // the caller gave up; see session.dropIfLost
	}
	if protocolError(err) {
		return true
	}
	var oe *network.OracleError
	if errors.As(err, &oe) {
		return oe.Bad() || oe.ErrCode == 12170 || oe.ErrCode == 12541
	}
	var ne net.Error
	switch {
	case errors.Is(err, driver.ErrBadConn), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, network.ErrConnReset), errors.Is(err, net.ErrClosed):
		return true
	case errors.As(err, &ne):
		return true
	}
	return false
}

// transient reports whether retrying on a fresh session may succeed.
// Context errors are never transient: the caller gave up.
func transient(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	if c := oraCode(err); c != 0 {
		return transientCodes[c] || connectionLost(err)
	}
	return connectionLost(err)
}

// scope is what a server error is about.
type scope uint8

const (
	scopeUnknown   scope = iota // bisect; "every probe fails alike" decides
	scopeRow                    // one row's values: bisect to its line
	scopeStatement              // the statement: every row fails alike, never bisect
)

// statementCodes are errors of the statement, not of a row (SPEC §6.3):
// every row of the execute fails with them, so bisection would only
// narrow down to the first row and name an innocent record. ORA-00900 to
// ORA-00999 (parse and name resolution: 00904 invalid identifier, 00932
// inconsistent datatypes, 00942, 00997 illegal use of LONG, …) are
// statement errors too (see scopeOf).
var statementCodes = map[int]bool{
	1006:  true, // bind variable does not exist
	1008:  true, // not all variables bound
	1031:  true, // insufficient privileges
	1036:  true, // illegal variable name/number
	1461:  true, // can bind a LONG value only for insert into a LONG column
	1745:  true, // invalid host/bind variable name
	6550:  true, // PL/SQL compilation error
	12838: true, // cannot read/modify an object after modifying it in parallel
	24816: true, // expanded non LONG bind data supplied after actual LONG or LOB column
}

// scopeOf classifies a server error: row codes first (a row error may
// carry a parse position: Oracle points at the TO_NUMBER that failed),
// then statement codes, then a parse position (go-ora's OracleError.ErrPos,
// set from the reply's error offset) marks a statement error.
func scopeOf(err error) scope {
	code := oraCode(err)
	switch {
	case code == 0:
		return scopeUnknown
	case oravalue.RowLevel(code): // one row's values (SPEC §6.3: by the ORA code)
		return scopeRow
	case statementCodes[code], code >= 900 && code <= 999:
		return scopeStatement
	}
	var oe *network.OracleError
	if errors.As(err, &oe) && oe.ErrPos() > 0 {
		return scopeStatement
	}
	return scopeUnknown
}

// TimeoutError is the error of a statement that ran past
// statement_timeout_seconds. go-ora never returns the context's error: on
// the deadline it sends a break and returns the server's answer, ORA-01013
// (network/session.go StartContext, BreakConnection). The session is
// dropped after it and the statement is not bisected or retried.
type TimeoutError struct {
	Limit time.Duration
	Err   error
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("statement timed out after %s (statement_timeout_seconds): %v", e.Limit, e.Err)
}

// Unwrap exposes both the deadline and the driver's error (its ORA code).
func (e *TimeoutError) Unwrap() []error { return []error{context.DeadlineExceeded, e.Err} }

func isTimeout(err error) bool {
	var te *TimeoutError
	return errors.As(err, &te)
}
