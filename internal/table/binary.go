package table

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
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

// RawCeiling is the RAW limit that goes with a VARCHAR2 ceiling.
func RawCeiling(varcharCeiling int) int {
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
	if limit := RawCeiling(ceiling); s.MaxBytes <= limit {
		return Type{Kind: KindRaw, Length: limit}
	}
	return Type{Kind: KindBlob}
}

// DecodeBinary returns the bytes of a stored binary value (padded base64).
func DecodeBinary(stored string) ([]byte, error) {
	return base64.StdEncoding.DecodeString(stored)
}

// BinaryText is the text a stored binary value (padded base64) gets in
// a text column: its bytes in base16, in capitals, as Oracle's own RAW to
// VARCHAR2 conversion (RAWTOHEX) gives them. It is the one rule for a RAW
// column's values rewritten as text (a migration) and for a RAW value
// written into a text column another stream made (MigrateValue for
// ConvertsOnWrite), so one column never holds both forms.
func BinaryText(stored string) (string, error) {
	b, err := DecodeBinary(stored)
	if err != nil {
		return "", fmt.Errorf("stored binary value is not base64: %v", err)
	}
	return strings.ToUpper(hex.EncodeToString(b)), nil
}

// migrateBinary converts a stored binary value for MigrateValue: RAW to
// a longer RAW or to BLOB keeps it; RAW to text gives its BinaryText.
func migrateBinary(from, to Type, stored string) (string, error) {
	switch {
	case to.IsBinary() && (to.Kind == KindBlob || from.Kind == KindRaw):
		return stored, nil
	case from.Kind == KindRaw && to.IsText():
		t, err := BinaryText(stored)
		if err != nil {
			return "", fmt.Errorf("%s value: %v", from, err)
		}
		return t, nil
	}
	return "", fmt.Errorf("cannot migrate a %s value to %s", from, to)
}
