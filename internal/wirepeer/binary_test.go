package wirepeer_test

import (
	"bytes"
	"context"
	"database/sql"
	"testing"

	go_ora "github.com/sijms/go-ora/v2"

	"github.com/target-oracle/target-oracle/internal/wirepeer"
)

// TestByteBinds is what the Oracle engine's binary bind classes
// (internal/oracle/binary_binds.go) rest on, checked on the wire with the
// real go-ora v2.9.0: [][]byte is a RAW array bind (type 23) whose nil
// element is NULL and whose declared length is the longest value; a
// value longer than go-ora's RAW limit (4000 on a server without 32K
// types) is LONG RAW (24), sent after the other binds, when the array's
// last element is one too (the engine groups such rows apart);
// []go_ora.Blob is a BLOB locator (113) per value through a temporary LOB.
func TestByteBinds(t *testing.T) {
	const typeRaw = 23
	p, db := open(t, wirepeer.Facts{})
	ctx := context.Background()
	long := bytes.Repeat([]byte{0xAB}, 5000)
	cases := []struct {
		name     string
		arg      any
		wantType int
		wantLen  int
		want     [][]byte
	}{
		{"raw", [][]byte{{0, 1, 2}, nil, bytes.Repeat([]byte{7}, 2000)}, typeRaw, 2000, [][]byte{{0, 1, 2}, nil, bytes.Repeat([]byte{7}, 2000)}},
		{"long raw", [][]byte{long, long[:4001]}, wirepeer.TypeLongRaw, 5000, [][]byte{long, long[:4001]}},
		// The hazard the engine's grouping avoids: go-ora declares the
		// array by its last element, so a NULL after a long value makes
		// it a RAW of 5000 bytes, longer than any RAW column.
		{"long then NULL", [][]byte{long, nil}, typeRaw, 5000, nil},
		{"blob", []go_ora.Blob{{Data: []byte("hi")}, {}}, wirepeer.TypeBLOB, 0, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := 3
			if c.name != "raw" {
				n = 2
			}
			ids := make([]sql.NullString, n)
			for i := range ids {
				ids[i] = sql.NullString{String: "1", Valid: true}
			}
			if _, err := db.ExecContext(ctx, `INSERT INTO T (B, ID) VALUES (:1, :2)`, c.arg, ids); err != nil {
				t.Fatal(err)
			}
			e := p.Executes()[len(p.Executes())-1]
			b := e.Binds[0]
			if b.Type != c.wantType {
				t.Fatalf("bind type %d, want %d (%+v)", b.Type, c.wantType, b)
			}
			if c.wantLen > 0 && b.MaxLen < c.wantLen {
				t.Errorf("declared length %d, want at least %d", b.MaxLen, c.wantLen)
			}
			for i, w := range c.want {
				v := e.Rows[i][0]
				if v.Null != (w == nil) || !bytes.Equal(v.Bytes, w) {
					t.Errorf("row %d: null=%v %d bytes, want %d bytes", i, v.Null, len(v.Bytes), len(w))
				}
			}
		})
	}
	if created, freed := p.TempLOBs(); created != 1 || freed != 1 {
		t.Errorf("temporary LOBs created %d, freed %d; want 1 (the non-NULL Blob)", created, freed)
	}
}
