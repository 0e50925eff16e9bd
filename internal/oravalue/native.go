package oravalue

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// ToBoolean is TO_BOOLEAN of text: 'true', 't', 'yes', 'y', 'on', '1' and
// 'false', 'f', 'no', 'n', 'off', '0' in any case (the strings the SQL
// reference's PLSQL_IMPLICIT_CONVERSION_BOOL lists) give "true" and
// "false"; any other text is ORA-61800, the code of Oracle's BOOLEAN
// conversions (ORA-01722 is TO_NUMBER's).
func ToBoolean(s string) (string, *Error) {
	switch s {
	case "true", "false":
		return s, nil
	}
	switch strings.ToLower(s) {
	case "true", "t", "yes", "y", "on", "1":
		return "true", nil
	case "false", "f", "no", "n", "off", "0":
		return "false", nil
	}
	return "", errorf(61800, "invalid boolean value %.40q", s)
}

// JSONText is the JSON(:n) constructor of a JSON column: ORA-40441 for
// text that is not JSON.
func JSONText(s string) *Error {
	if !validJSON(s) {
		return errorf(40441, "JSON syntax error")
	}
	if p := DuplicateName(s); p != nil {
		return errorf(40441, "JSON syntax error: member %q repeats a name of its object (the JSON type holds unique names)", strings.Join(p, "."))
	}
	return nil
}

func validJSON(s string) bool { return json.Valid([]byte(s)) }

// jsonShape is the cheap test of a JSON text: it starts and ends as a
// JSON value does. It refuses text that is not JSON at all and truncated
// documents, not every syntax error.
func jsonShape(v string) bool {
	first, last := v[0], v[len(v)-1]
	switch {
	case first == '{':
		return last == '}' && len(v) > 1
	case first == '[':
		return last == ']' && len(v) > 1
	case first == '"':
		return last == '"' && len(v) > 1
	case first == '-' || first >= '0' && first <= '9':
		return last >= '0' && last <= '9'
	}
	return v == "true" || v == "false" || v == "null"
}

// ToVector is TO_VECTOR of text: a JSON array of at least one number.
// Text of another shape is ORA-51804, an element that is no number
// ORA-51805.
func ToVector(s string) *Error {
	_, err := vectorElements(s)
	return err
}

// vectorElements parses a vector's text into its elements.
func vectorElements(s string) ([]json.RawMessage, *Error) {
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(s), &raw); err != nil || len(raw) == 0 {
		return nil, errorf(51804, "invalid syntax for VECTOR value %.40q: must be '[number, …, number]'", s)
	}
	for i, r := range raw {
		if _, err := strconv.ParseFloat(string(r), 64); err != nil && !isRange(err) {
			return nil, errorf(51805, "invalid syntax for VECTOR value: the dimension value at position %d could not be converted to a number", i+1)
		}
	}
	return raw, nil
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// checkVector checks a vector's dimension count (ORA-51803) and that every
// element is within its format: FLOAT32's and FLOAT64's range, INT8's
// integers -128..127 (ORA-51806).
func (c *Column) checkVector(v string) *Error {
	nums, err := vectorElements(v)
	if err != nil {
		return err
	}
	if c.Dim > 0 && len(nums) != c.Dim {
		return errorf(51803, "vector dimension count must match the dimension count specified in the column definition (expected %d dimensions, specified %d dimensions) in column %s", c.Dim, len(nums), c.path())
	}
	for i, r := range nums {
		bits := 64
		if c.VectorFormat == VectorFloat32 {
			bits = 32 // the nearest FLOAT32 of the text must exist
		}
		f, err := strconv.ParseFloat(string(r), bits)
		bad := err != nil
		if c.VectorFormat == VectorInt8 {
			bad = f != math.Trunc(f) || f < math.MinInt8 || f > math.MaxInt8
		}
		if bad {
			return errorf(51806, "vector dimension value at position %d is outside the range allowed by the dimension format %s (column %s)", i+1, strings.ToUpper(c.VectorFormat), c.path())
		}
	}
	return nil
}

// base64Len is the length of the bytes a stored binary value (padded
// base64) holds.
func base64Len(v string) (int, bool) {
	n, err := base64.StdEncoding.DecodeString(v)
	return len(n), err == nil
}
