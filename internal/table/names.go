package table

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Identifier limits in bytes: COMPATIBLE < 12.2 allows 30, later 128.
const (
	MaxBytesShort = 30
	MaxBytesLong  = 128
)

// hashLen is the length of the "_" + 8 hex digit suffix added to a name
// that was cut or that collided.
const hashLen = 9

// Quote returns name as a double-quoted Oracle identifier. Names built by
// this package never contain '"' or NUL, so no escaping is needed (Oracle
// has none).
func Quote(name string) string { return `"` + name + `"` }

// ConformName maps a generated name onto Oracle's portable identifier
// alphabet: every character outside ASCII A-Z a-z 0-9 _ $ # becomes one '_'
// (an invalid UTF-8 byte counts as one character), and with upper the ASCII
// letters are upper-cased. It does not apply the byte limit; see FitName.
func ConformName(s string, upper bool) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s { // invalid bytes arrive as utf8.RuneError, one per byte
		switch {
		case r >= 'a' && r <= 'z':
			if upper {
				r -= 'a' - 'A'
			}
			b.WriteByte(byte(r))
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '$', r == '#':
			b.WriteByte(byte(r))
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// NameHash is the collision suffix of a name whose source is src (a
// property path joined with ".", a stream name, or a derived object's full
// name): "_" and the first 8 hex digits of SHA-256(src).
func NameHash(src string) string {
	sum := sha256.Sum256([]byte(src))
	return "_" + hex.EncodeToString(sum[:4])
}

// cutUTF8 returns the longest prefix of s of at most n bytes that does not
// end inside a UTF-8 sequence.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	// Step back over continuation bytes to the start of the cut character.
	i := n
	for i > 0 && i > n-utf8.UTFMax && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i]
}

// suffixed returns name cut to fit maxBytes with the hash suffix of src
// appended. A result that starts with a reserved prefix (the name had one,
// or the cut formed one: "sys0…" cut to "sys" + "_…") is made from '_' +
// name instead, so it no longer does.
func suffixed(name, src string, maxBytes int) string {
	s := cutUTF8(name, maxBytes-hashLen) + NameHash(src)
	if reservedName(s) {
		s = cutUTF8("_"+name, maxBytes-hashLen) + NameHash(src)
	}
	return s
}

// reservedName reports whether Oracle refuses name as a column name even
// quoted, or whether it uses a prefix Oracle keeps for itself. ROWID is the
// one word the SQL Reference (Reserved Words, note 2) says cannot name a
// column even quoted; SYS_ is the prefix of system-generated names and ORA$
// of private temporary tables. The comparison ignores case so that a
// preserved-case name never differs from Oracle's only by case.
func reservedName(name string) bool {
	if strings.EqualFold(name, "ROWID") {
		return true
	}
	return hasPrefixFold(name, "SYS_") || hasPrefixFold(name, "ORA$")
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// FitName returns name if it fits maxBytes, is not empty and is not
// reserved; otherwise it returns the name cut to fit with NameHash(src)
// appended (see suffixed for reserved prefixes).
func FitName(name, src string, maxBytes int) string {
	if name != "" && len(name) <= maxBytes && !reservedName(name) {
		return name
	}
	return suffixed(name, src, maxBytes)
}

// derivedSuffixes end the names the target derives from a column's for
// objects of its own in the column namespace: "$M" the marker column of a
// rewrite migration (oraclesql MigrationColumn, memory's migrate), "$P"
// the virtual partition column of a WITH TIME ZONE column (tablemap
// partition). A property column whose generated name ends in one of them
// is treated as a collision (suffixed), so that property "v$m" never takes
// the name a migration of V needs, nor "ts$p" the partition column of TS.
var derivedSuffixes = []string{"$M", "$P"}

// derivedLike reports whether name ends in a derivedSuffix (case-insensitive).
func derivedLike(name string) bool {
	for _, s := range derivedSuffixes {
		if len(name) >= len(s) && strings.EqualFold(name[len(name)-len(s):], s) {
			return true
		}
	}
	return false
}

// ColumnName is FitName for a generated property column: a name that
// ends in a suffix of a derived column (derivedSuffixes) is also treated
// as a collision. Existing columns are matched by FitName, so a column an
// earlier release named V$M keeps its property.
func ColumnName(name, src string, maxBytes int) string {
	if fit := FitName(name, src, maxBytes); fit != name || !derivedLike(name) {
		return fit
	}
	return suffixed(name, src, maxBytes)
}

// Namer hands out unique names within one namespace (the columns of one
// table). Comparison is exact: Oracle quoted identifiers are case-sensitive.
type Namer struct {
	max   int
	taken map[string]bool
}

// NewNamer returns a Namer for names of at most maxBytes bytes.
func NewNamer(maxBytes int) *Namer {
	return &Namer{max: maxBytes, taken: make(map[string]bool)}
}

// Reserve marks name as taken and reports whether it was free.
func (n *Namer) Reserve(name string) bool {
	if n.taken[name] {
		return false
	}
	n.taken[name] = true
	return true
}

// Name returns a free name for base (already conformed) whose collision
// source is src, and reserves it. A base that is too long, empty, reserved
// or taken is cut and suffixed with NameHash(src); should even that be
// taken (two sources with the same hash or the same dotted path), the
// suffix of src + "#2", "#3", … is tried in turn, so the result is still
// deterministic for the same input order.
func (n *Namer) Name(base, src string) string {
	name := ColumnName(base, src, n.max)
	if n.Reserve(name) {
		return name
	}
	if name == base { // a valid name that another column took first
		name = suffixed(base, src, n.max)
		if n.Reserve(name) {
			return name
		}
	}
	for i := 2; ; i++ {
		cand := suffixed(base, fmt.Sprintf("%s#%d", src, i), n.max)
		if n.Reserve(cand) {
			return cand
		}
	}
}

// TakenName is the name Namer.Name gives base (a valid name, as
// ColumnName returns it) when another column took base first: cut and
// suffixed with NameHash(src).
func TakenName(base, src string, maxBytes int) string { return suffixed(base, src, maxBytes) }

// Quotable reports whether name can stand between the double quotes of an
// Oracle identifier: no '"' (it would end the name and let the rest run as
// SQL) and no control character (NUL, or a line break that would split a
// statement of a SQL*Plus script).
func Quotable(name string) bool {
	return !strings.ContainsFunc(name, func(r rune) bool { return r == '"' || r < 0x20 || r == 0x7f })
}

// CheckName validates a name used verbatim (a mapping, or one read from
// configuration): it must be valid UTF-8, not empty, Quotable, and fit
// maxBytes.
func CheckName(name string, maxBytes int) error {
	switch {
	case name == "":
		return fmt.Errorf("name is empty")
	case !utf8.ValidString(name):
		return fmt.Errorf("name %q is not valid UTF-8", name)
	case !Quotable(name):
		return fmt.Errorf("name %q contains a double quote or a control character, which Oracle identifiers cannot hold", name)
	case len(name) > maxBytes:
		return fmt.Errorf("name %q is %d bytes, over the identifier limit of %d bytes", name, len(name), maxBytes)
	}
	return nil
}

// TableName returns the table of stream: its mapping verbatim when
// mapping is not "", else table_prefix + stream + table_suffix conformed
// and fitted with the hash of the stream name. Conforming keeps one
// character per character, so a generated name is never empty: "..." and
// "-" give "___" and "_" (and collide like any other names, SPEC §5.1). An
// empty stream name is refused: the reader refuses it first, and a hash of
// nothing would name a table after no stream.
func TableName(stream string, opts *Options) (string, error) {
	max := opts.MaxBytes()
	if stream == "" {
		return "", errors.New(`stream name is empty: no table name can be made of it`)
	}
	if opts.TableName != "" {
		if err := CheckName(opts.TableName, max); err != nil {
			return "", &ConfigError{Setting: "table_name_mappings", Msg: fmt.Sprintf("stream %q: %v", stream, err)}
		}
		return opts.TableName, nil
	}
	// A name too long, or with a prefix Oracle keeps (SYS_, ORA$: a
	// permanent table named ORA$PTT_X is refused), is treated as a
	// collision (SPEC §5.1), as a column's is.
	// So is a name with the prefix of --verify's and --benchmark's
	// scratch tables, which they drop (fitTableName).
	return fitTableName(ConformName(opts.TablePrefix+opts.tablePart(stream)+opts.TableSuffix, opts.IdentifierUpper), stream, max), nil
}

// CollidingTableName is the n-th (from 1) candidate name for a stream
// whose generated table name is taken by another stream's table (SPEC
// §5.1): the generated name cut to fit, then "_" + the first 8 hex digits
// of SHA-256 of the stream name; from n = 2 on, of stream + "#n" (should
// even the suffixed name be taken). Only generated names collide: a
// mapping is used verbatim.
func CollidingTableName(stream string, opts *Options, n int) string {
	base := ConformName(opts.TablePrefix+opts.tablePart(stream)+opts.TableSuffix, opts.IdentifierUpper)
	src := stream
	if n > 1 {
		src = fmt.Sprintf("%s#%d", stream, n)
	}
	return tableSuffixed(base, src, opts.MaxBytes())
}

// tablePart is the text a generated table name is made from: the routed
// table part, else the stream name.
func (o *Options) tablePart(stream string) string {
	if o.TablePart != "" {
		return o.TablePart
	}
	return stream
}

// SchemaName conforms default_target_schema like a generated name. ""
// stays "" (the login user's own schema).
func SchemaName(s string, upper bool, maxBytes int) string {
	if s == "" {
		return ""
	}
	return FitName(ConformName(s, upper), s, maxBytes)
}

// DerivedName names an object derived from a table (constraint, index,
// staging table, migration column): base + suffix when it fits maxBytes,
// else that text cut and suffixed with its own hash. base is used as is
// (it is already a valid name), so a derived name is as stable as its base.
func DerivedName(base, suffix string, maxBytes int) string {
	full := base + suffix
	if len(full) <= maxBytes {
		return full
	}
	return suffixed(full, full, maxBytes)
}

// SchemaUniqueName names a derived object whose name must be unique per
// schema, not per table (constraints, indexes): parts joined with "_" +
// suffix, fitted to maxBytes. Joined text is ambiguous as soon as a part
// has an "_" or there are more than two parts: table ORDER with column
// LINE_ACTIVE and table ORDER_LINE with ACTIVE both read
// ORDER_LINE_ACTIVE, and so do columns (A, B_C) and (A_B, C) of one
// index. Then the hash of the parts (NUL-separated) follows them:
// ORDER_LINE_ACTIVE_1b976931_BOOL. Only two "_"-free parts stay plain,
// and a plain name has exactly one "_" before the suffix, so it never
// equals a hashed one; a name too long is cut and ends with the hash of
// the whole text (DerivedName), which differs wherever the text does.
func SchemaUniqueName(parts []string, suffix string, maxBytes int) string {
	base := strings.Join(parts, "_")
	if len(parts) != 2 || strings.Contains(parts[0], "_") || strings.Contains(parts[1], "_") {
		base += NameHash(strings.Join(parts, "\x00"))
	}
	return DerivedName(base, suffix, maxBytes)
}

// IndexName is the name of a custom index without one: <TABLE>_<COLUMNS>
// + "_IDX", unique per schema as Oracle's index names are
// (SchemaUniqueName): ORDER.LINE_ID and ORDER_LINE.ID both had
// ORDER_LINE_ID_IDX, and the second table's CREATE INDEX failed with
// ORA-00955, which then counted as "done". An index an earlier release
// made under its plain name is not made again: the CREATE INDEX meets
// ORA-01408 on its column list (oracle's indexDone).
func IndexName(table string, columns []string, maxBytes int) string {
	return SchemaUniqueName(append([]string{table}, columns...), "_IDX", maxBytes)
}

// PrimaryKeyName is the primary key constraint name of a table: <TABLE>_PK.
func PrimaryKeyName(table string, maxBytes int) string {
	return DerivedName(table, "_PK", maxBytes)
}
