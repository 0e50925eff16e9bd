package memory

import (
	"bytes"

	"github.com/target-oracle/target-oracle/internal/table"
)

// compareBinary orders stored binary values by their bytes, as Oracle
// orders RAW.
func compareBinary(a, b string) int {
	x, errA := table.DecodeBinary(a)
	y, errB := table.DecodeBinary(b)
	if errA != nil || errB != nil {
		return bytes.Compare([]byte(a), []byte(b))
	}
	return bytes.Compare(x, y)
}
