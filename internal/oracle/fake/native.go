package fake

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	go_ora "github.com/sijms/go-ora/v2"

	"github.com/target-oracle/target-oracle/internal/table"
)

// parseNativeType reads RAW(n), BLOB and VECTOR(n|*, FORMAT) column types.
func parseNativeType(name, args, suffix string) (table.Type, error) {
	bad := fmt.Errorf("fake: unsupported type %s(%s)%s", name, args, suffix)
	if suffix != "" {
		return table.Type{}, bad
	}
	switch name {
	case "RAW":
		n, err := strconv.Atoi(args)
		if err != nil || n < 1 || n > table.RawMaxBytesExtended {
			return table.Type{}, bad
		}
		return table.Type{Kind: table.KindRaw, Length: n}, nil
	case "BLOB":
		if args != "" {
			return table.Type{}, bad
		}
		return table.Type{Kind: table.KindBlob}, nil
	}
	if args == "" {
		return table.Type{Kind: table.KindVector}, nil
	}
	dim, format, ok := strings.Cut(args, ", ")
	t := table.Type{Kind: table.KindVector, VectorFormat: strings.ToLower(format)}
	if dim != "*" {
		n, err := strconv.Atoi(dim)
		if err != nil || n < 1 || n > table.MaxVectorDim {
			return table.Type{}, bad
		}
		t.Dim = n
	}
	switch t.VectorFormat {
	case table.VectorFloat32, table.VectorFloat64, table.VectorInt8:
	default:
		ok = false
	}
	if !ok {
		return table.Type{}, bad
	}
	return t, nil
}

// binaryArg decodes the byte arguments go-ora takes: []byte and [][]byte
// (RAW, or LONG RAW past its RAW limit), go_ora.Blob and []go_ora.Blob (a
// temporary LOB each; nil or empty Data is NULL). Values become their
// padded base64, the stored form.
func binaryArg(a any) (arg, bool) {
	enc := func(b []byte) string {
		if len(b) == 0 {
			return ""
		}
		return base64.StdEncoding.EncodeToString(b)
	}
	switch a := a.(type) {
	case []byte:
		return arg{vals: []string{enc(a)}, class: classRaw, binary: true}, true
	case [][]byte:
		return arg{vals: mapSlice(a, enc), class: classRaw, binary: true, array: true}, true
	case go_ora.Blob:
		return arg{vals: []string{enc(a.Data)}, class: classLOB, binary: true}, true
	case []go_ora.Blob:
		return arg{vals: mapSlice(a, func(b go_ora.Blob) string { return enc(b.Data) }), class: classLOB, binary: true, array: true}, true
	}
	return arg{}, false
}

// measureBinary measures a byte argument as go-ora v2.9.0 encodes it: a
// []byte longer than its RAW limit (maxLen.raw: 4000, or 32767 on a
// server with 32K types, connection.go:1390-1398) is a LONG RAW
// (parameter_encode.go:382-395), and an array bind takes its declared
// type from its last element, so one array must not mix the two. A RAW
// bind longer than any RAW column (2001–4000 bytes on a STANDARD server)
// is refused: what the server does with it is not known [verify on a
// real DB], and the engine never sends one.
func (db *DB) measureBinary(d *arg) error {
	goOraRaw, rawLimit := 4000, table.RawMaxBytesStandard
	if db.o.MaxStringBytes >= table.RawMaxBytesExtended {
		goOraRaw, rawLimit = table.RawMaxBytesExtended, table.RawMaxBytesExtended
	}
	kinds := map[bool]bool{}
	for _, v := range d.vals {
		if v == "" {
			continue
		}
		n := base64.StdEncoding.DecodedLen(len(v)) - strings.Count(v[max(0, len(v)-2):], "=")
		d.maxLen = max(d.maxLen, n)
		if d.class == classLOB {
			d.lobs++
			continue
		}
		long := n > goOraRaw
		kinds[long] = true
		d.long = d.long || long
		if !long && n > rawLimit {
			return fmt.Errorf("a RAW bind of %d bytes: longer than any RAW column (%d), yet below go-ora's LONG RAW switch (%d) [server behaviour unknown]", n, rawLimit, goOraRaw)
		}
	}
	lastLong := false
	if n := len(d.vals); n > 0 && d.vals[n-1] != "" {
		v := d.vals[n-1]
		lastLong = base64.StdEncoding.DecodedLen(len(v))-strings.Count(v[max(0, len(v)-2):], "=") > goOraRaw
	}
	if len(kinds) > 1 || d.long && !lastLong {
		// wirepeer.TestByteBinds: [long, NULL] is declared a RAW of the
		// long value's length.
		return fmt.Errorf("an array of bytes mixing RAW (or NULL) and LONG RAW values: go-ora declares the array by its last element (command.go:1654-1689)")
	}
	return nil
}

func binaryName(binary bool) string {
	if binary {
		return "bytes"
	}
	return "text"
}
