package memory

import (
	"bytes"
	"fmt"

	"github.com/target-oracle/target-oracle/internal/table"
)

// checkNative models the server's checks of a RAW, BLOB or VECTOR value
// (v is not NULL): a RAW holds at most its length in bytes (ORA-12899), a
// VECTOR of fixed dimension exactly that many elements (ORA-51803). The
// stored forms are padded base64 and compact JSON.
func checkNative(c *table.Column, v string) error {
	t := c.Type
	switch t.Kind {
	case table.KindRaw, table.KindBlob:
		b, err := table.DecodeBinary(v)
		if err != nil {
			return oraError(1465, fmt.Sprintf("invalid hex number: %q for column %q is not a stored binary value", v, c.Name))
		}
		if t.Kind == table.KindRaw && len(b) > t.Length {
			return oraError(12899, fmt.Sprintf("value too large for column %q (actual: %d, maximum: %d)", c.Name, len(b), t.Length))
		}
	case table.KindVector:
		if n := table.VectorElements(v); v[0] != '[' || t.Dim > 0 && n != t.Dim {
			return oraError(51803, fmt.Sprintf("vector dimension count must match the dimension count specified in the column definition (actual: %d, required: %d) in %q", n, t.Dim, c.Name))
		}
	}
	return nil
}

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
