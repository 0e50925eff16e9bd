package tablemap

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"

	"github.com/target-oracle/target-oracle/internal/schema"
	"github.com/target-oracle/target-oracle/internal/table"
)

// binaryEncoding is the property's binary encoding when
// interpret_content_encoding reads it, else "".
func binaryEncoding(p *schema.Property, o *table.Options) string {
	if !o.InterpretContentEncoding || p.Types.NonNull() != schema.String {
		return ""
	}
	switch p.ContentEncoding {
	case table.EncodingBase64, table.EncodingBase16:
		return p.ContentEncoding
	}
	return ""
}

// binaryType is RAW(n), n the most bytes maxLength encoded characters
// decode to (⌊maxLength·3/4⌋ for base64, ⌊maxLength/2⌋ for base16), when
// 1 ≤ n ≤ the RAW limit; else BLOB. ok is false for a property that is
// not binary.
func binaryType(p *schema.Property, o *table.Options) (table.Type, bool) {
	enc := binaryEncoding(p, o)
	if enc == "" {
		return table.Type{}, false
	}
	if p.MaxLength < 0 {
		return table.Type{Kind: table.KindBlob}, true
	}
	n := p.MaxLength / 2
	if enc == table.EncodingBase64 {
		n = p.MaxLength * 3 / 4 // MaxLength is at most MaxInt32: no overflow
	}
	if n < 1 || n > table.RawCeiling(o.Ceiling()) {
		return table.Type{Kind: table.KindBlob}, true
	}
	return table.Type{Kind: table.KindRaw, Length: n}, true
}

// binary converts a base64 or base16 string into the stored form of a
// binary column: its bytes in padded base64 (RFC 4648 §4), which the dump
// shows and engines decode. A value that is not valid in its encoding is
// invalid input.
func (l *Layout) binary(cp *colPlan, raw []byte, st *table.Stats) error {
	if raw[0] != '"' {
		return fmt.Errorf("expected a %s string, got a JSON %s", cp.encoding, kindName(raw[0]))
	}
	s, err := l.unquote(raw)
	if err != nil {
		return err
	}
	var n int
	switch cp.encoding {
	case table.EncodingBase16:
		l.bin = growBytes(l.bin, hex.DecodedLen(len(s)))
		n, err = hex.Decode(l.bin, s)
		if err != nil {
			return fmt.Errorf("not base16 (hexadecimal digits in pairs): %v", err)
		}
	default:
		enc := base64.StdEncoding.Strict()
		l.bin = growBytes(l.bin, enc.DecodedLen(len(s)))
		n, err = enc.Decode(l.bin, s)
		if err != nil {
			return fmt.Errorf("not base64 (RFC 4648 §4, padded): %v", err)
		}
	}
	st.MaxBytes = n
	l.buf = base64.StdEncoding.AppendEncode(l.buf, l.bin[:n])
	return nil
}

func growBytes(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}
