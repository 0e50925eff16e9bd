package table

// Scratch table prefixes: --verify and --benchmark (SPEC §2) create their
// tables as these prefixes followed by 8 hexadecimal digits, and drop
// leftovers of that shape with PURGE, so no load may ever write a table
// named so. config refuses mappings and table_prefix values that start
// so; a generated table name that does is treated as a collision.
const (
	VerifyPrefix    = "TARGET_ORACLE$VERIFY_"
	BenchmarkPrefix = "TARGET_ORACLE$BENCH_"
)

// ScratchPrefixes are the table name prefixes no load may take.
var ScratchPrefixes = []string{VerifyPrefix, BenchmarkPrefix}

// scratchTableName reports whether name starts with a scratch prefix, in
// any letter case (a preserved-case name never differs from a scratch
// table's only by case).
func scratchTableName(name string) bool {
	for _, p := range ScratchPrefixes {
		if hasPrefixFold(name, p) {
			return true
		}
	}
	return false
}

// fitTableName is FitName for a generated table name: a name with a
// scratch prefix is also treated as a collision (SPEC §5.1).
func fitTableName(name, src string, maxBytes int) string {
	if scratchTableName(name) {
		return tableSuffixed(name, src, maxBytes)
	}
	s := FitName(name, src, maxBytes)
	if scratchTableName(s) { // the cut and suffix formed the prefix
		s = tableSuffixed(name, src, maxBytes)
	}
	return s
}

// tableSuffixed is suffixed for a table name: a result that starts with a
// scratch prefix (the name had one, or the cut and suffix formed one:
// "TARGET_ORACLE$VERIFY" + "_1a2b3c4d") is made from '_' + name instead.
func tableSuffixed(name, src string, maxBytes int) string {
	s := suffixed(name, src, maxBytes)
	if scratchTableName(s) {
		s = cutUTF8("_"+name, maxBytes-hashLen) + NameHash(src)
	}
	return s
}
