package config

import (
	"fmt"
	"strings"
)

// Scratch table prefixes: --verify and --benchmark (SPEC §2) create their
// tables as these prefixes followed by 8 hexadecimal digits, and drop
// leftovers of that shape, so no load may ever write a table named so
// (package table has the same prefixes for generated names; a test keeps
// them equal).
const (
	VerifyPrefix    = "TARGET_ORACLE$VERIFY_"
	BenchmarkPrefix = "TARGET_ORACLE$BENCH_"
)

// ScratchPrefixes are the names no mapping may take.
var ScratchPrefixes = []string{VerifyPrefix, BenchmarkPrefix}

// checkNotScratch refuses a table name (or table_prefix) that starts with
// a scratch prefix, in any letter case (identifier_case upper-cases
// generated names).
func checkNotScratch(name string) error {
	up := strings.ToUpper(name)
	for _, p := range ScratchPrefixes {
		// A table_prefix of "TARGET_ORACLE$" and a stream "verify_…"
		// would make such a name too.
		if strings.HasPrefix(up, p) || len(up) >= len("TARGET_ORACLE$") && strings.HasPrefix(p, up) {
			return fmt.Errorf("%q starts like %s…, the prefix of the scratch tables of --verify and --benchmark, which drop such tables: choose another name", name, p)
		}
	}
	return nil
}

// convTablePrefix checks table_prefix.
func convTablePrefix(_ []setting, v any) (any, error) {
	s := v.(string)
	if err := checkNotScratch(s); err != nil {
		return nil, err
	}
	return s, nil
}
