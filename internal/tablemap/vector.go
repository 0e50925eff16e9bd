package tablemap

import (
	"fmt"
	"math"
	"strconv"

	"github.com/target-oracle/target-oracle/internal/schema"
	"github.com/target-oracle/target-oracle/internal/table"
)

// isVector reports whether p asks for a vector column: an array of
// numbers with x-sql-datatype vector or pgvector (MeltanoLabs
// target-postgres's convention).
func isVector(p *schema.Property) bool {
	if p.SQLDatatype != "vector" && p.SQLDatatype != "pgvector" || p.Types.NonNull() != schema.Array || p.Items == nil {
		return false
	}
	it := p.Items.Types.NonNull()
	return it != 0 && it&^(schema.Number|schema.Integer) == 0
}

// vectorSpec returns a vector property's dimension (0: "*", any) and
// element format: dimensions or dim of x-sql-datatype-properties, else
// minItems when it equals maxItems; format float32 unless given. An
// unknown format or a dimension Oracle cannot hold is an error.
func vectorSpec(p *schema.Property) (int, string, error) {
	dim := p.VectorDim
	if dim == 0 && p.MinItems >= 1 && p.MinItems == p.MaxItems {
		dim = p.MinItems
	}
	if dim > table.MaxVectorDim {
		return 0, "", fmt.Errorf("vector of %d dimensions: Oracle allows at most %d", dim, table.MaxVectorDim)
	}
	switch f := p.VectorFormat; f {
	case "":
		return dim, table.VectorFloat32, nil
	case table.VectorFloat32, table.VectorFloat64, table.VectorInt8:
		return dim, f, nil
	default:
		return 0, "", fmt.Errorf("x-sql-datatype-properties.format %q: float32, float64 or int8 expected", f)
	}
}

// vectorType is VECTOR(n, FORMAT) for a vector property when the server
// has the type (VectorNative), else the JSON type (the builder warns).
// ok is false for a property that is not a vector.
func vectorType(p *schema.Property, o *table.Options) (table.Type, bool) {
	if !isVector(p) {
		return table.Type{}, false
	}
	if !o.VectorNative {
		return o.JSONType(), true
	}
	dim, f, err := vectorSpec(p)
	if err != nil {
		return o.JSONType(), true // the builder reports err
	}
	return table.Type{Kind: table.KindVector, Dim: dim, VectorFormat: f}, true
}

// vector converts a JSON array of numbers into the stored form of a
// VECTOR column: compact JSON with each element rounded to the column's
// format (the nearest float32 or float64, printed in the shortest form
// that reads back as it; an INT8 element rounded to the nearest integer),
// which TO_VECTOR reads. Wrong lengths, an element that is no number, and
// values out of the format's range are invalid input.
func (l *Layout) vector(cp *colPlan, raw []byte) error {
	if raw[0] != '[' {
		return fmt.Errorf("expected a vector (a JSON array of numbers), got a JSON %s", kindName(raw[0]))
	}
	t := cp.typ
	l.buf = append(l.buf, '[')
	n := 0
	i := skipWS(raw, 1)
	for i < len(raw) && raw[i] != ']' {
		end, err := valueEnd(raw, i)
		if err != nil {
			return err
		}
		if n > 0 {
			l.buf = append(l.buf, ',')
		}
		if err := l.vectorElement(t, raw[i:end], n); err != nil {
			return err
		}
		n++
		i = skipWS(raw, end)
		if i < len(raw) && raw[i] == ',' {
			i = skipWS(raw, i+1)
		}
	}
	l.buf = append(l.buf, ']')
	switch {
	case n == 0:
		return fmt.Errorf("an empty vector: Oracle vectors have at least one dimension")
	case t.Dim > 0 && n != t.Dim:
		return fmt.Errorf("a vector of %d elements, its column %s has %d dimensions", n, t, t.Dim)
	case n > table.MaxVectorDim:
		return fmt.Errorf("a vector of %d elements: Oracle allows at most %d", n, table.MaxVectorDim)
	}
	return nil
}

func (l *Layout) vectorElement(t table.Type, el []byte, n int) error {
	if len(el) == 0 || el[0] != '-' && (el[0] < '0' || el[0] > '9') {
		return fmt.Errorf("vector element %d: expected a number, got a JSON %s", n, kindName(el[0]))
	}
	switch t.VectorFormat {
	case table.VectorInt8:
		f, err := strconv.ParseFloat(string(el), 64)
		r := math.Round(f)
		if err != nil || r < math.MinInt8 || r > math.MaxInt8 {
			return fmt.Errorf("vector element %d: %s is out of the INT8 range -128..127", n, el)
		}
		l.buf = strconv.AppendInt(l.buf, int64(r), 10)
	case table.VectorFloat64:
		f, err := strconv.ParseFloat(string(el), 64)
		if err != nil {
			return fmt.Errorf("vector element %d: %s is out of the FLOAT64 range", n, el)
		}
		l.buf = strconv.AppendFloat(l.buf, f, 'g', -1, 64)
	default:
		f, err := strconv.ParseFloat(string(el), 32)
		if err != nil {
			return fmt.Errorf("vector element %d: %s is out of the FLOAT32 range", n, el)
		}
		l.buf = strconv.AppendFloat(l.buf, f, 'g', -1, 32)
	}
	return nil
}
