package oracle

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/sijms/go-ora/v2/converters"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

// charsetIDs are Oracle's ids of the character sets go-ora v2.9.0
// converts (converters.NewStringConverter), by name (NLS_CHARACTERSET,
// NLS_NCHAR_CHARACTERSET).
var charsetIDs = map[string]int{
	"US7ASCII": 1, "WE8ISO8859P1": 31, "EE8ISO8859P2": 32, "WE8ISO8859P15": 46,
	"EE8MSWIN1250": 170, "CL8MSWIN1251": 171, "EL8MSWIN1253": 174, "IW8MSWIN1255": 175,
	"TR8MSWIN1254": 177, "WE8MSWIN1252": 178, "BLT8MSWIN1257": 179, "AR8MSWIN1256": 560,
	"JA16SJIS": 832, "KO16MSWIN949": 846, "ZHS16GBK": 852, "ZHT16MSWIN950": 867,
	"UTF8": charsetUTF8, "AL32UTF8": charsetAL32UTF8, "AL16UTF16": charsetAL16UTF16,
}

// CharsetID returns Oracle's id of a character set name, 0 when the
// target does not know it.
func CharsetID(name string) int { return charsetIDs[strings.ToUpper(name)] }

// charset checks text against a database character set that is not
// Unicode. go-ora converts every non-national string on the client and
// writes a character the set cannot hold as the byte 0xFD ("ý",
// converters/string_conversion.go:119-121): the server stores it without
// complaint. The target refuses such text before sending it.
type charset struct {
	name string
	conv converters.IStringConverter // nil: unknown to go-ora, only ASCII is safe
	// cesu is Oracle's UTF8 (id 871), CESU-8: a character outside the
	// Basic Multilingual Plane is a surrogate pair of two 3-byte
	// sequences there (two characters for VARCHAR2(n CHAR)), but go-ora
	// sends the standard 4-byte UTF-8, which UTF8 does not hold. Such
	// characters are refused; the others are the same in both and count
	// as one character each, as there.
	cesu bool
}

// newCharset returns the check for the database character set name, nil
// for a Unicode one (or none given).
func newCharset(name string) *charset {
	id := CharsetID(name)
	if name == "" || id == charsetAL32UTF8 {
		return nil
	}
	if id == charsetUTF8 {
		return &charset{name: "UTF8", cesu: true}
	}
	c := &charset{name: strings.ToUpper(name)}
	if id != 0 {
		c.conv = converters.NewStringConverter(id)
	}
	return c
}

// bad returns the first character of s the set cannot hold, or -1. It
// asks go-ora's own converter: a character survives when encoding and
// decoding give it back.
func (c *charset) bad(s string) rune {
	if isASCII(s) {
		return -1
	}
	if c.cesu {
		for _, r := range s {
			if r > 0xFFFF {
				return r
			}
		}
		return -1
	}
	if c.conv == nil {
		for _, r := range s {
			if r >= utf8.RuneSelf {
				return r
			}
		}
		return -1
	}
	if c.conv.Decode(c.conv.Encode(s)) == s {
		return -1
	}
	for _, r := range s {
		if r < utf8.RuneSelf {
			continue
		}
		ch := string(r)
		if c.conv.Decode(c.conv.Encode(ch)) != ch {
			return r
		}
	}
	return -1
}

// CharsetError is text the database character set cannot hold: invalid
// input for this database, refused before anything is sent.
// It unwraps to a *inputerr.Error, so the run exits 3.
type CharsetError struct {
	Charset  string
	Column   string // the column (bind) or "" for SQL text
	Property string // the column's property path ("a.b"), when known
	Line     int64  // the record's input line; 0 for SQL text or a fixed value
	Char     rune
	What     string // what the text is, for SQL text
}

func (e *CharsetError) Error() string {
	where := "the SQL text of " + e.What
	// national_characters changes the type of columns, not the character
	// set SQL text travels in: for a comment's text (a property's
	// description) the way out is to leave descriptions out.
	fix := "leave property descriptions out of column comments (column_comments: false) or use a Unicode database"
	if e.Column != "" {
		fix = "use national_characters: always (NVARCHAR2/NCLOB) or a Unicode database"
		where = fmt.Sprintf("the value of column %q", e.Column)
		if e.Property != "" {
			where = fmt.Sprintf("property %q (column %q)", e.Property, e.Column)
		}
		if e.Line > 0 {
			where = fmt.Sprintf("line %d: %s", e.Line, where)
		}
	}
	stored := "it would be stored as \"\u00fd\""
	if e.Charset == "UTF8" {
		stored = "UTF8 is CESU-8, which holds a character above U+FFFF as a surrogate pair, not as the 4-byte UTF-8 " +
			"the driver sends; AL32UTF8 holds it"
	}
	return fmt.Sprintf("%s has the character %q (U+%04X), which the database character set %s cannot hold "+
		"(%s); %s",
		where, e.Char, e.Char, e.Charset, stored, fix)
}

// Unwrap makes the error invalid input.
func (e *CharsetError) Unwrap() error {
	return &inputerr.Error{Line: e.Line, Property: e.Property, Msg: "text the database character set cannot hold"}
}

// checkTexts refuses values of bd that the database character set cannot
// hold. National text travels in the national character set, which holds
// every character; JSON travels as ASCII (asciiJSON).
func (b *binder) checkTexts(bd *oraclesql.Bind, rows []engine.Row, texts []string) error {
	if b.charset == nil || bd.Type.National || bd.Type.Kind == table.KindJSON {
		return nil
	}
	for i, s := range texts {
		if r := b.charset.bad(s); r >= 0 {
			e := &CharsetError{Charset: b.charset.name, Column: bd.Column, Char: r}
			if i < len(rows) && bd.Source == oraclesql.FromRow {
				e.Line = rows[i].Line
			}
			return e
		}
	}
	return nil
}

// checkSQL refuses SQL text the database character set cannot hold: go-ora
// sends the text itself in that set (command.go:86-99), so a table or
// column comment would be stored corrupted. Names are ASCII and property
// paths in comments are written as ASCII escapes; descriptions may not be.
func (b *binder) checkSQL(st *oraclesql.Statement) error {
	if b.charset == nil {
		return nil
	}
	if r := b.charset.bad(st.SQL); r >= 0 {
		what, _, _ := strings.Cut(st.SQL, "(")
		return &CharsetError{Charset: b.charset.name, Char: r, What: fmt.Sprintf("%.80q", strings.TrimSpace(what))}
	}
	return nil
}
