package table

// Vector element formats (x-sql-datatype-properties.format, SPEC §5.2).
const (
	VectorFloat32 = "float32"
	VectorFloat64 = "float64"
	VectorInt8    = "int8"
)

// MaxVectorDim is Oracle 23ai's most dimensions of a VECTOR column.
const MaxVectorDim = 65535

func vectorFormatSQL(f string) string {
	switch f {
	case VectorFloat64:
		return "FLOAT64"
	case VectorInt8:
		return "INT8"
	}
	return "FLOAT32"
}

// vectorElements counts the elements of a stored vector (compact JSON of
// numbers).
func vectorElements(stored string) int {
	if len(stored) <= 2 {
		return 0
	}
	n := 1
	for i := 0; i < len(stored); i++ {
		if stored[i] == ',' {
			n++
		}
	}
	return n
}

// VectorElements is vectorElements for engines checking a stored vector
// against its column.
func VectorElements(stored string) int { return vectorElements(stored) }
