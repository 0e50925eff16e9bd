package batchfile

import (
	"strings"
	"testing"
)

// The walker passes the thrift parquet-go writes (every footer of this
// package's files, FuzzParquetFile's seeds) and refuses a length past the
// buffer's end, whatever kind of value claims it.
func TestThriftLengthClaims(t *testing.T) {
	deep := strings.Repeat("\x1c", 70) // field 1, STRUCT, nested past the bound
	for _, c := range []struct {
		name, b, want string
	}{
		{"version and an empty list", "\x15\x02\x19\x0c\x00", ""},
		{"a string that fits", "\x18\x03abc\x00", ""},
		{"a list claiming more than is left", "\x15\x02\x19\xfc\x80\x80\x80\x80\x08", "claims a list of"},
		{"a string claiming more than is left", "\x18\xff\xff\x03ab", "claims a string of"},
		{"a map claiming more than is left", "\x1b\x80\x80\x80\x80\x08\x55", "claims a map of"},
		{"nested too deep", deep, "nests more than"},
		{"cut inside a value", "\x16", "ends inside a value"},
	} {
		err := checkThriftLengths([]byte(c.b))
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
}
