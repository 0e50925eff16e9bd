package engine

import (
	"context"
	"errors"
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
