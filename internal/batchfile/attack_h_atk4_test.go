package batchfile

import (
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// TestAttackFloat16PrintedAsFloat32: a Parquet FLOAT16 value is widened to
// float32 and printed as the shortest text that reads back as that
// float32: 0x3555 (exactly 0.333251953125) becomes 0.33325195, the
// smallest subnormal (exactly 5.9604644775390625e-08) 5.9604645e-08, 0x2e66
// (0.0999755859375) 0.099975586. That text is neither the value as a jsonl
// row of the same data holds it when a Python writer prints the float
// (0.333251953125, 5.960464477539063e-08, 0.0999755859375) nor the
// shortest text that reads back as the FLOAT16 (0.3333, 6e-08, 0.1): it
// is float32's rounding of a number float32 holds exactly, so a NUMBER column gets 0.33325195,
// 3e-9 from the value, and the same rows in jsonl and in Parquet load
// different numbers (the package promises the rest of the pipeline cannot
// tell the formats apart). Silent value change in the last digits, for
// FLOAT16 columns only (FLOAT and DOUBLE print their own shortest form).
func TestAttackFloat16PrintedAsFloat32(t *testing.T) {
	// was: t.Skip("finding: Parquet FLOAT16 0x3555 (exactly 0.333251953125) is loaded as 0.33325195: float32's shortest text, neither the exact value nor FLOAT16's shortest (0.3333)")
	flba := func(b ...byte) parquet.Value { return parquet.FixedLenByteArrayValue(b) }
	for _, c := range []struct {
		bits        []byte
		python, f16 string
	}{
		{[]byte{0x55, 0x35}, "0.333251953125", "0.3333"},
		{[]byte{0x01, 0x00}, "5.960464477539063e-08", "6e-08"},
		{[]byte{0x66, 0x2e}, "0.0999755859375", "0.1"},
	} {
		elems := []format.SchemaElement{pqRoot(1), fixed(pqLeaf("x", req, format.FixedLenByteArray, &format.Float16Type{}), 2)}
		got, err := assembleRow(t, elems, parquet.Row{lv(flba(c.bits...), 0, 0, 0)})
		if err != nil {
			t.Fatal(err)
		}
		if got != `{"x":`+c.python+`}` && got != `{"x":`+c.f16+`}` {
			t.Errorf("FLOAT16 %x: %s; want the value as Python prints the float, %s, or FLOAT16's shortest text %s", c.bits, got, c.python, c.f16)
		}
	}
}
