package table

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strconv"

	"github.com/target-oracle/target-oracle/internal/schema"
)

// RAW limits: 2000 bytes, 32767 with MAX_STRING_SIZE=EXTENDED (the same
// setting that gives VARCHAR2 32767 bytes).
const (
	RawMaxBytesStandard = 2000
	RawMaxBytesExtended = 32767
)

// Binary content encodings of JSON Schema's contentEncoding that
// interpret_content_encoding reads (SPEC §5.2).
const (
	EncodingBase64 = "base64" // RFC 4648 §4, padded
	EncodingBase16 = "base16" // RFC 4648 §8, either case
)

// rawCeiling is the RAW limit that goes with a VARCHAR2 ceiling.
func rawCeiling(varcharCeiling int) int {
	if varcharCeiling >= RawMaxBytesExtended {
		return RawMaxBytesExtended
	}
	return RawMaxBytesStandard
}

// IsBinary reports whether t holds bytes (RAW or BLOB).
func (t Type) IsBinary() bool { return t.Kind == KindRaw || t.Kind == KindBlob }

// nativeString renders RAW, BLOB and VECTOR types.
func (t Type) nativeString() string {
	switch t.Kind {
	case KindRaw:
		return "RAW(" + strconv.Itoa(t.Length) + ")"
	case KindBlob:
		return "BLOB"
	}
	if t.VectorFormat == "" {
		return "VECTOR" // an existing column whose shape the catalog did not tell
	}
	dim := "*"
	if t.Dim > 0 {
		dim = strconv.Itoa(t.Dim)
	}
	return "VECTOR(" + dim + ", " + vectorFormatSQL(t.VectorFormat) + ")"
}

// binaryEncoding is the property's binary encoding when
// interpret_content_encoding reads it, else "".
func binaryEncoding(p *schema.Property, o *Options) string {
	if !o.InterpretContentEncoding || p.Types.NonNull() != schema.String {
		return ""
	}
	switch p.ContentEncoding {
	case EncodingBase64, EncodingBase16:
		return p.ContentEncoding
	}
	return ""
}

// binaryType is RAW(n), n the most bytes maxLength encoded characters
// decode to (⌊maxLength·3/4⌋ for base64, ⌊maxLength/2⌋ for base16), when
// 1 ≤ n ≤ the RAW limit; else BLOB. ok is false for a property that is
// not binary.
func binaryType(p *schema.Property, o *Options) (Type, bool) {
	enc := binaryEncoding(p, o)
	if enc == "" {
		return Type{}, false
	}
	if p.MaxLength < 0 {
		return Type{Kind: KindBlob}, true
	}
	n := p.MaxLength / 2
	if enc == EncodingBase64 {
		n = p.MaxLength * 3 / 4 // MaxLength is at most MaxInt32: no overflow
	}
	if n < 1 || n > rawCeiling(o.ceiling()) {
		return Type{Kind: KindBlob}, true
	}
	return Type{Kind: KindRaw, Length: n}, true
}

// binaryText is the text type a binary column's values take when the
// column becomes text: base16 (two characters a byte, RAWTOHEX) of a RAW,
// CLOB for a BLOB.
func binaryText(t Type, national bool) Type {
	if t.Kind == KindRaw {
		return Type{Kind: KindVarchar, Length: 2 * t.Length, National: national, CharSemantics: national}
	}
	return Type{Kind: KindClob, National: national}
}

// joinBinary is Join when a or b is binary: RAW(n) < RAW(m) < BLOB;
// binary with anything else is text (the encoded form), as if the binary
// side were its base16 text.
func joinBinary(a, b Type, ceiling int) Type {
	switch {
	case a.IsBinary() && b.IsBinary():
		if a.Kind == KindBlob || b.Kind == KindBlob {
			return Type{Kind: KindBlob}
		}
		return Type{Kind: KindRaw, Length: max(a.Length, b.Length)}
	case a.IsBinary():
		return Join(binaryText(a, b.National), b, ceiling)
	}
	return Join(a, binaryText(b, a.National), ceiling)
}

// fitBinary widens a RAW that is too short for s.MaxBytes bytes: to the
// RAW limit in one step (as VARCHAR2 grows to its ceiling), else BLOB.
func fitBinary(t Type, s Stats, ceiling int) Type {
	if t.Kind != KindRaw || s.MaxBytes <= t.Length {
		return t
	}
	if limit := rawCeiling(ceiling); s.MaxBytes <= limit {
		return Type{Kind: KindRaw, Length: limit}
	}
	return Type{Kind: KindBlob}
}

// binary converts a base64 or base16 string into the stored form of a
// binary column: its bytes in padded base64 (RFC 4648 §4), which the dump
// shows and engines decode. A value that is not valid in its encoding is
// invalid input.
func (l *Layout) binary(cp *colPlan, raw []byte, st *Stats) error {
	if raw[0] != '"' {
		return fmt.Errorf("expected a %s string, got a JSON %s", cp.encoding, kindName(raw[0]))
	}
	s, err := l.unquote(raw)
	if err != nil {
		return err
	}
	var n int
	switch cp.encoding {
	case EncodingBase16:
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

// DecodeBinary returns the bytes of a stored binary value (padded base64).
func DecodeBinary(stored string) ([]byte, error) {
	return base64.StdEncoding.DecodeString(stored)
}

// migrateBinary converts a stored binary value for MigrateValue: RAW to
// a longer RAW or to BLOB keeps it; RAW to text gives its base16 text in
// capitals, as RAWTOHEX does.
func migrateBinary(from, to Type, stored string) (string, error) {
	switch {
	case to.IsBinary() && (to.Kind == KindBlob || from.Kind == KindRaw):
		return stored, nil
	case from.Kind == KindRaw && to.isText():
		b, err := DecodeBinary(stored)
		if err != nil {
			return "", fmt.Errorf("stored %s value is not base64: %v", from, err)
		}
		return fmt.Sprintf("%X", b), nil
	}
	return "", fmt.Errorf("cannot migrate a %s value to %s", from, to)
}
