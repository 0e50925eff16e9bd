package table

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Column comments record where a column's values come from, so that later
// runs match columns to properties whatever their names became (§5.1):
//
//	target-oracle:path=["address","city"]; City of the address
//	target-oracle:document
//	target-oracle:metadata=_sdc_extracted_at
//	target-oracle:path=["payload"] json-text
//	target-oracle:migration-of=["CITY"]; target-oracle:path=["city"]
//
// " json-text" after the path marks JSON text in a CLOB without an IS
// JSON check (Type.JSONUnchecked): the catalog shows only a plain CLOB.
// The path is a JSON array of the property keys from the record root (a
// key may itself contain "." or ";"). The schema description follows
// "; " when there is one; it is free text and ends the comment.
const commentPrefix = "target-oracle:"

// maxCommentBytes is Oracle's limit on a column comment.
const maxCommentBytes = 4000

// FormatComment returns the comment for c, cut at a UTF-8 boundary to
// Oracle's 4000-byte limit (only the description is ever cut).
func FormatComment(c *Column) string {
	var b strings.Builder
	b.WriteString(commentPrefix)
	switch c.Role {
	case RoleDocument:
		b.WriteString("document")
	case RoleMetadata:
		b.WriteString("metadata=")
		if len(c.Source) > 0 {
			b.WriteString(c.Source[0])
		}
	case RoleMigration:
		// The replaced column's comment is restored from here, so it is
		// kept whole or not at all: a cut one would match nothing.
		p, _ := json.Marshal(c.Source) // []string always marshals
		b.WriteString("migration-of=")
		b.WriteString(ASCIIJSON(string(p)))
		if c.Comment != "" && b.Len()+2+len(c.Comment) <= maxCommentBytes {
			b.WriteString("; ")
			b.WriteString(c.Comment)
		}
		return b.String()
	default:
		p, _ := json.Marshal(c.Source) // []string always marshals
		if c.Source == nil {
			p = []byte("[]")
		}
		b.WriteString("path=")
		// ASCII only: go-ora sends SQL text in the database character
		// set, and a path corrupted there would break column matching on
		// later runs (a character WE8MSWIN1252 lacks arrives as "ý").
		path := ASCIIJSON(string(p))
		if b.Len()+len(path)+len(jsonTextMark) > maxCommentBytes {
			// Cut, the path would not read back and the column would be
			// matched by name only; its digest still matches (SourceMatches).
			path = `["` + PathDigest(c.Source) + `"]`
		}
		b.WriteString(path)
		if c.Type.Kind == KindJSON && c.Type.JSONUnchecked {
			b.WriteString(jsonTextMark)
		}
	}
	if c.Comment != "" {
		b.WriteString("; ")
		b.WriteString(c.Comment)
	}
	return cutUTF8(b.String(), maxCommentBytes)
}

// MigrationComment is the comment of the marker column of a migration of
// c (RoleMigration): it names c, records what SET UNUSED … CASCADE
// CONSTRAINTS takes out of the catalog (c's NOT NULL, and key, the
// table's primary key columns when c is one of them: MarkerFacts), and
// carries c's own comment (FormatComment) when withComment, its
// description cut if the whole would pass Oracle's 4000 bytes, so that
// the path survives a migration that is stopped and finished later:
//
//	target-oracle:migration-of=["K"] not-null key=["ID","K"]; target-oracle:path=["k"]
func MigrationComment(c *Column, withComment bool, key []string, old string) string {
	head := FormatComment(&Column{Role: RoleMigration, Source: []string{c.Name}}) + MarkerFacts{NotNull: !c.Nullable, Key: key, Old: old}.text()
	if c.Role == 0 {
		// A comment the target did not write (a DBA's, on an adopted
		// column): carried as it is, whatever withComment says, so that
		// the finished column gets it back; whole or not at all.
		if c.Comment == "" || len(head)+len("; ")+len(c.Comment) > maxCommentBytes {
			return head
		}
		return head + "; " + c.Comment
	}
	if !withComment {
		return head
	}
	inner := FormatComment(c)
	if over := len(head) + len("; ") + len(inner) - maxCommentBytes; over > 0 && len(c.Comment) > 0 {
		cc := *c
		cc.Comment = cutUTF8(c.Comment, max(0, len(c.Comment)-over))
		inner = FormatComment(&cc)
	}
	if inner == "" || len(head)+len("; ")+len(inner) > maxCommentBytes {
		return head // kept whole or not at all: a cut one would match nothing
	}
	return head + "; " + inner
}

// MarkerFacts is what a migration's marker comment records of the column
// it replaces besides its comment (MigrationComment): whether it is NOT
// NULL, and the table's primary key columns when it is one of them (nil
// otherwise). A marker of an earlier release records neither. Old is the
// name the migration renames the old column to before it drops it (so
// that a writer that comes late fails instead of writing a value the drop
// would take: oraclesql's migrate), "" for a marker of a release that
// dropped the old column under its own name.
type MarkerFacts struct {
	NotNull bool
	Key     []string
	Old     string
}

const (
	notNullMark = " not-null"
	keyMark     = " key="
	oldMark     = " old="
)

func (f MarkerFacts) text() string {
	s := ""
	if f.NotNull {
		s += notNullMark
	}
	if len(f.Key) > 0 {
		s += keyMark + asciiList(f.Key)
	}
	if f.Old != "" {
		s += oldMark + asciiList([]string{f.Old})
	}
	return s
}

// parseMarkerFacts reads the facts at the start of s (what follows the
// column of "migration-of=") and returns the rest; ok is false when they
// are malformed.
func parseMarkerFacts(s string) (f MarkerFacts, rest string, ok bool) {
	if r, found := strings.CutPrefix(s, notNullMark); found {
		f.NotNull, s = true, r
	}
	if r, found := strings.CutPrefix(s, keyMark); found {
		dec := json.NewDecoder(strings.NewReader(r))
		if err := dec.Decode(&f.Key); err != nil || len(f.Key) == 0 {
			return MarkerFacts{}, "", false
		}
		s = r[dec.InputOffset():]
	}
	if r, found := strings.CutPrefix(s, oldMark); found {
		dec := json.NewDecoder(strings.NewReader(r))
		var old []string
		if err := dec.Decode(&old); err != nil || len(old) != 1 || old[0] == "" {
			return MarkerFacts{}, "", false
		}
		f.Old, s = old[0], r[dec.InputOffset():]
	}
	return f, s, true
}

// ParseMarkerFacts reads the facts of a marker comment written by
// MigrationComment; ok is false for a comment that is no marker's.
func ParseMarkerFacts(s string) (f MarkerFacts, ok bool) {
	rest, found := strings.CutPrefix(s, commentPrefix+"migration-of=")
	if !found {
		return f, false
	}
	dec := json.NewDecoder(strings.NewReader(rest))
	var col []string
	if err := dec.Decode(&col); err != nil || len(col) != 1 {
		return f, false
	}
	f, _, ok = parseMarkerFacts(rest[dec.InputOffset():])
	return f, ok
}

// ASCIIJSON returns JSON text with every non-ASCII character written as
// a \uXXXX escape (a surrogate pair above U+FFFF): the same JSON, which
// survives any database character set. In JSON text non-ASCII can only
// stand inside strings, where the escape means the same character.
func ASCIIJSON(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	const hex = "0123456789abcdef"
	var b strings.Builder
	b.Grow(len(s) + 16)
	esc := func(r rune) {
		b.WriteString(`\u`)
		for shift := 12; shift >= 0; shift -= 4 {
			b.WriteByte(hex[(r>>shift)&0xF])
		}
	}
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		case r > 0xFFFF:
			r1, r2 := utf16.EncodeRune(r)
			esc(r1)
			esc(r2)
		default:
			esc(r)
		}
	}
	return b.String()
}

// PathDigest stands for a property path too long for a column comment:
// "sha256:" + the hex SHA-256 of the path's JSON text.
func PathDigest(path []string) string {
	p, _ := json.Marshal(path) // []string always marshals
	sum := sha256.Sum256(p)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// SourceMatches reports whether a path read from a column comment is
// path, written out or as its PathDigest.
func SourceMatches(recorded, path []string) bool {
	if slices.Equal(recorded, path) {
		return true
	}
	return len(recorded) == 1 && strings.HasPrefix(recorded[0], "sha256:") && recorded[0] == PathDigest(path)
}

// ParseComment reads a comment written by FormatComment. ok is false for
// any other comment (a column the target did not create); description is
// then the whole comment.
func ParseComment(s string) (role Role, source []string, description string, ok bool) {
	rest, found := strings.CutPrefix(s, commentPrefix)
	if !found {
		return 0, nil, s, false
	}
	head, desc, _ := strings.Cut(rest, "; ")
	switch {
	case head == "document":
		return RoleDocument, nil, desc, true
	case strings.HasPrefix(head, "metadata="):
		return RoleMetadata, []string{strings.TrimPrefix(head, "metadata=")}, desc, true
	case strings.HasPrefix(head, "migration-of="):
		dec := json.NewDecoder(strings.NewReader(strings.TrimPrefix(rest, "migration-of=")))
		var col []string
		if err := dec.Decode(&col); err != nil || len(col) != 1 {
			return 0, nil, s, false
		}
		after := strings.TrimPrefix(rest, "migration-of=")[dec.InputOffset():]
		_, after, ok := parseMarkerFacts(after) // ParseMarkerFacts reads them
		if !ok {
			return 0, nil, s, false
		}
		inner, _ := strings.CutPrefix(after, "; ")
		return RoleMigration, col, inner, true
	case strings.HasPrefix(head, "path="):
		// The path is JSON and may contain "; " inside a key: decode the
		// array from the start of the text and take the description after.
		dec := json.NewDecoder(strings.NewReader(strings.TrimPrefix(rest, "path=")))
		var path []string
		if err := dec.Decode(&path); err != nil {
			return 0, nil, s, false
		}
		after := strings.TrimPrefix(rest, "path=")[dec.InputOffset():]
		after = strings.TrimPrefix(after, jsonTextMark)
		desc, _ = strings.CutPrefix(after, "; ")
		if !utf8.ValidString(desc) {
			desc = strings.ToValidUTF8(desc, "\uFFFD")
		}
		return RoleProperty, path, desc, true
	}
	return 0, nil, s, false
}

// jsonTextMark follows the path of a JSONUnchecked column's comment.
const jsonTextMark = " json-text"

// CommentJSONText reports whether a column comment written by
// FormatComment marks JSON text in a plain CLOB (Type.JSONUnchecked).
func CommentJSONText(s string) bool {
	rest, ok := strings.CutPrefix(s, commentPrefix+"path=")
	if !ok {
		return false
	}
	dec := json.NewDecoder(strings.NewReader(rest))
	var path []string
	if dec.Decode(&path) != nil {
		return false
	}
	return strings.HasPrefix(rest[dec.InputOffset():], jsonTextMark)
}

// Table comments record the source streams of a table the target created
// (SPEC §5.1), so that a later run, or another pipeline, knows whose table
// a generated name is:
//
//	target-oracle:streams=["public-orders"]
const tableCommentPrefix = commentPrefix + "streams="

// FormatTableComment returns the comment of a table loaded from streams,
// with the key a key replacement replaced when there is one (nil: none):
//
//	target-oracle:streams=["s"]; replaced_key=["ID"]
//
// Should the names not fit Oracle's 4000 bytes, each stream is recorded
// as "sha256:" + the first 16 hex digits of the SHA-256 of the name
// (StreamsInclude matches both, and the full 64 digits of earlier
// releases); an entry that is a digest already is kept (shortened to 16
// digits), never hashed again. Some 150 digests fit (TableCommentFits), and the replaced key, should it still not fit, as the digest of
// its JSON (ReplacedKeyIs matches both). Earlier keys (Table.EarlierKeys)
// follow, oldest first; the oldest are left out should they not fit:
//
//	target-oracle:streams=["s"]; replaced_key=["B"]; earlier_keys=[["A"]]
//
// The JSON is ASCII (ASCIIJSON), as a column comment's path: go-ora sends
// SQL text in the database character set, and a stream name such as
// "日本" is text a WE8MSWIN1252 database cannot hold, so the run failed at
// the table's first comment.
func FormatTableComment(streams, replacedKey []string, earlier ...[]string) string {
	b := asciiList(streams)
	key := replacedKeySuffix(replacedKey)
	if replacedKey != nil {
		key += earlierKeysSuffix(earlier, maxCommentBytes-len(tableCommentPrefix)-len(b)-len(key))
	}
	if len(tableCommentPrefix)+len(b)+len(key) > maxCommentBytes {
		hashed := make([]string, len(streams))
		for i, s := range streams {
			hashed[i] = shortStreamDigest(s)
		}
		b = asciiList(hashed)
	}
	if len(tableCommentPrefix)+len(b)+len(key) > maxCommentBytes {
		k, _ := json.Marshal(replacedKey)
		key = replacedKeySuffix([]string{streamDigest(string(k))})
	}
	return tableCommentPrefix + b + key
}

// asciiList is the JSON of names with non-ASCII written as \uXXXX.
func asciiList(names []string) string {
	b, _ := json.Marshal(names) // []string always marshals
	return ASCIIJSON(string(b))
}

const replacedKeyPrefix = "; replaced_key="

const earlierKeysPrefix = "; earlier_keys="

// earlierKeysSuffix records keys in at most room bytes, leaving out the
// oldest that do not fit ("" when none is left).
func earlierKeysSuffix(keys [][]string, room int) string {
	for ; len(keys) > 0; keys = keys[1:] {
		k, _ := json.Marshal(keys)
		if s := earlierKeysPrefix + ASCIIJSON(string(k)); len(s) <= room {
			return s
		}
	}
	return ""
}

func replacedKeySuffix(key []string) string {
	if key == nil {
		return ""
	}
	return replacedKeyPrefix + asciiList(key)
}

// ReplacedKeyIs reports whether a table comment's replaced key is key,
// as recorded or by digest. A recorded empty key (the table had none) is
// matched by a keyless SCHEMA, whose key is nil: a stream that gained its
// key replays from keyless (SPEC §7.6).
func ReplacedKeyIs(recorded, key []string) bool {
	if recorded == nil {
		return false
	}
	if slices.Equal(recorded, key) {
		return true
	}
	k, _ := json.Marshal(key)
	return len(recorded) == 1 && recorded[0] == streamDigest(string(k))
}

// shortDigestHex is how many hex digits of a stream's SHA-256 a hashed
// table comment keeps (64 bits): 26 bytes an entry with its quotes and
// comma, where the full digest took 73 and 55 of them passed 4000 bytes.
const shortDigestHex = 16

// shortStreamDigest is the entry of stream in a hashed table comment: a
// digest (full or short) read back from a comment is kept, shortened, so
// that re-recording never digests a digest.
func shortStreamDigest(stream string) string {
	if isDigest(stream) {
		return stream[:len("sha256:")+shortDigestHex]
	}
	return streamDigest(stream)[:len("sha256:")+shortDigestHex]
}

// isDigest reports whether a recorded entry is a stream digest of
// shortDigestHex to 64 hex digits.
func isDigest(s string) bool {
	h, ok := strings.CutPrefix(s, "sha256:")
	if !ok || len(h) < shortDigestHex || len(h) > 64 {
		return false
	}
	_, err := hex.DecodeString(h[:len(h)&^1])
	return err == nil
}

// TableCommentFits reports whether the comment of a table loaded from
// streams stays within Oracle's 4000 bytes, the names hashed if need be.
func TableCommentFits(streams, replacedKey []string, earlier ...[]string) bool {
	return len(FormatTableComment(streams, replacedKey, earlier...)) <= maxCommentBytes
}

func streamDigest(stream string) string {
	sum := sha256.Sum256([]byte(stream))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// StreamsInclude reports whether a table comment's streams name stream,
// by name or by digest.
func StreamsInclude(streams []string, stream string) bool {
	digest := ""
	for _, s := range streams {
		if s == stream {
			return true
		}
		if isDigest(s) {
			if digest == "" {
				digest = streamDigest(stream)
			}
			if strings.HasPrefix(digest, s) { // full, or short (shortStreamDigest)
				return true
			}
		}
	}
	return false
}

// FormatTableCommentDescribed is FormatTableComment after desc, a
// comment the target did not write (a DBA's, on an adopted table), kept
// so that recording the streams destroys no one's text; desc is cut
// should the whole pass Oracle's 4000 bytes.
func FormatTableCommentDescribed(desc string, streams, replacedKey []string, earlier ...[]string) string {
	rec := FormatTableComment(streams, replacedKey, earlier...)
	if desc == "" {
		return rec
	}
	if room := maxCommentBytes - len(rec) - 1; room > 0 {
		return cutUTF8(desc, room) + " " + rec
	}
	return rec
}

// ParseTableComment reads a table comment: the target's record
// (ParseTableCommentKeys), possibly after a description the target did
// not write (FormatTableCommentDescribed). ok is false when there is no
// record; description is then the whole comment.
func ParseTableComment(s string) (description string, streams, replacedKey []string, earlier [][]string, ok bool) {
	if streams, replacedKey, earlier, ok = ParseTableCommentKeys(s); ok {
		return "", streams, replacedKey, earlier, true
	}
	if i := strings.LastIndex(s, " "+tableCommentPrefix); i >= 0 {
		if streams, replacedKey, earlier, ok = ParseTableCommentKeys(s[i+1:]); ok {
			return s[:i], streams, replacedKey, earlier, true
		}
	}
	return s, nil, nil, nil, false
}

// ParseTableCommentKeys reads a comment written by FormatTableComment; ok
// is false for any other comment (a table the target did not create).
// Comments of releases before the replaced key read with replacedKey nil,
// those before the earlier keys with earlier nil.
func ParseTableCommentKeys(s string) (streams, replacedKey []string, earlier [][]string, ok bool) {
	rest, found := strings.CutPrefix(s, tableCommentPrefix)
	if !found {
		return nil, nil, nil, false
	}
	dec := json.NewDecoder(strings.NewReader(rest))
	if err := dec.Decode(&streams); err != nil || streams == nil {
		return nil, nil, nil, false
	}
	after := rest[dec.InputOffset():]
	if after == "" {
		return streams, nil, nil, true
	}
	key, found := strings.CutPrefix(after, replacedKeyPrefix)
	if !found {
		return nil, nil, nil, false
	}
	dec = json.NewDecoder(strings.NewReader(key))
	if err := dec.Decode(&replacedKey); err != nil || replacedKey == nil {
		return nil, nil, nil, false
	}
	if after = key[dec.InputOffset():]; after == "" {
		return streams, replacedKey, nil, true
	}
	more, found := strings.CutPrefix(after, earlierKeysPrefix)
	if !found || json.Unmarshal([]byte(more), &earlier) != nil || len(earlier) == 0 ||
		slices.ContainsFunc(earlier, func(k []string) bool { return k == nil }) {
		return nil, nil, nil, false
	}
	return streams, replacedKey, earlier, true
}
