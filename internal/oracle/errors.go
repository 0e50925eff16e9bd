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

	"github.com/sijms/go-ora/v2/network"
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
}

// connectionLost reports whether err means the session is gone: after it,
// a transaction in progress is lost and the outcome of a COMMIT in flight
// is unknown.
func connectionLost(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false // the caller gave up; see session.dropIfLost
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
