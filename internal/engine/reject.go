package engine

import (
	"context"
	"errors"
	"fmt"
)

// Trier is an optional interface of a Session, needed for
// on_database_error: reject (SPEC §6.3): TryLoad runs the steps as Load
// would, in one transaction, and always rolls it back. The loader finds
// the rows the database refuses by trying parts of a batch (go-ora keeps
// per-row batch errors private).
type Trier interface {
	TryLoad(ctx context.Context, steps []Step) error
}

// CodedError is implemented by an engine's errors that carry a server
// error: the ORA code, and whether the engine's classification (for
// Oracle: internal/oracle/errors.go) takes it for an error of one row's
// values rather than of the statement.
type CodedError interface {
	error
	ORACode() int
	RowLevel() bool
}

// RowErrorCode returns the ORA code of err when the engine classifies it
// as an error of one row's values, else 0.
func RowErrorCode(err error) int {
	var ce CodedError
	if errors.As(err, &ce) && ce.RowLevel() {
		return ce.ORACode()
	}
	return 0
}

// ErrorCode returns the ORA code err carries, row-level or not, else 0.
func ErrorCode(err error) int {
	var ce CodedError
	if errors.As(err, &ce) {
		return ce.ORACode()
	}
	return 0
}

// RowError is a row the database refused, named by its record's input
// line (Row.Line), for an engine whose own errors do not carry it: the
// loader names the input stream of that row from it (InputLine).
type RowError struct {
	Line int64
	Err  error
}

func (e *RowError) Error() string { return fmt.Sprintf("input line %d: %v", e.Line, e.Err) }
func (e *RowError) Unwrap() error { return e.Err }

// InputLine is the refused row's input line (LineError).
func (e *RowError) InputLine() int64 { return e.Line }

// LineError is implemented by an engine's errors that know the input
// line of the row the database refused (0: not known).
type LineError interface {
	error
	InputLine() int64
}

// ErrorLine returns the input line of the refused row err names, else 0.
func ErrorLine(err error) int64 {
	var le LineError
	if errors.As(err, &le) {
		return le.InputLine()
	}
	return 0
}
