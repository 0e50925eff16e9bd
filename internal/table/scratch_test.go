package table

import (
	"strings"
	"testing"
)

// TestGeneratedTableNameAvoidsScratchPrefix (found by an attack): a
// generated table name with the prefix of --verify's or --benchmark's
// scratch tables (which they drop with PURGE) is treated as a collision:
// it gets '_' before it and the stream's hash after, in any letter case,
// also when a cut and suffix would form the prefix.
func TestGeneratedTableNameAvoidsScratchPrefix(t *testing.T) {
	for _, tc := range []struct {
		stream string
		opts   Options
	}{
		{"target_oracle$verify_deadbeef", Options{}},
		{"target_oracle$verify_deadbeef", Options{IdentifierUpper: true}},
		{"oracle$verify_DEADBEEF", Options{TablePrefix: "target_", IdentifierUpper: true}},
		{"TARGET_ORACLE$BENCH_01234567", Options{}},
		{"TARGET_ORACLE$VERIFY_" + strings.Repeat("x", 200), Options{IdentifierUpper: true}},
		{"TARGET_ORACLE$VERIFY", Options{IdentifierMaxBytes: 30}}, // fits, but its suffixed names would have the prefix
	} {
		opts := tc.opts
		name, err := TableName(tc.stream, &opts)
		if err != nil {
			t.Fatalf("%q: %v", tc.stream, err)
		}
		for n := 0; n <= 3; n++ {
			if n > 0 {
				name = CollidingTableName(tc.stream, &opts, n)
			}
			if scratchTableName(name) || len(name) > opts.MaxBytes() {
				t.Errorf("%q (candidate %d): table name %q", tc.stream, n, name)
			}
		}
	}
	opts := Options{}
	if name, _ := TableName("target_oracle$verify_deadbeef", &opts); name != "_target_oracle$verify_deadbeef"+NameHash("target_oracle$verify_deadbeef") {
		t.Errorf("got %q", name)
	}
	// A name that does not start with a scratch prefix is unchanged.
	if name, _ := TableName("my_target_oracle$verify_x", &opts); name != "my_target_oracle$verify_x" {
		t.Errorf("got %q", name)
	}
}
