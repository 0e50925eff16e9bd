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
