package oracle

import (
	"testing"

	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

// TestAttackNumberStarScaleReadAsUnconstrained: an adopted table's column
// declared NUMBER(*,2) (a common money column: any precision, two
// decimals) is listed in ALL_TAB_COLS with DATA_PRECISION NULL and
// DATA_SCALE 2, as INTEGER (NUMBER(*,0)) is with DATA_SCALE 0, which
// typeFromCatalog already reads as NUMBER(38,0). For a scale other than 0
// it falls through to `!r[colPrecision].Valid` and returns the
// unconstrained NUMBER. The loader then believes 1.234 fits, neither widens
// the column nor refuses the value, binds TO_NUMBER('1.234'), and Oracle
// rounds it to the column's scale: 1.23 is stored, no error, the STATE
// that covers the record is written. Both models of Oracle would keep
// 1.234 (the embedded engine and the fake read the table as NUMBER), so
// --dry-run/--plan and --verify agree with the loader, not with the server.
// Silent value change (digits lost) on a real server; not verified on
// Oracle (none here). NUMBER(*,-2) is read as NUMBER the same way (Oracle
// rounds 1234 to 1200).
func TestAttackNumberStarScaleReadAsUnconstrained(t *testing.T) {
	// was: t.Skip("finding: adopted NUMBER(*,2) (DATA_PRECISION NULL, DATA_SCALE 2) is read as unconstrained NUMBER; 1.234 is bound as is and Oracle silently rounds it to 1.23")
	for _, c := range []struct {
		scale string
		want  table.Type
	}{
		{"2", table.Type{Kind: table.KindNumber, Precision: 38, Scale: 2}},
		{"-2", table.Type{Kind: table.KindNumber, Precision: 38, Scale: -2}},
	} {
		got, err := typeFromCatalog(catalogRow("A", "NUMBER", "22", "0", "", "", c.scale, "0"))
		if err != nil || got != c.want {
			t.Errorf("NUMBER(*,%s): %+v, %v; want %+v (a type whose scale rounds values, so the loader widens or refuses instead of losing digits)", c.scale, got, err, c.want)
		}
	}
}

// TestAttackUTF8DatabaseTakesFourByteUTF8: Oracle's UTF8 character set
// (id 871) is CESU-8: a supplementary character (U+1F600) is a surrogate
// pair of two 3-byte sequences there, and VARCHAR2(n CHAR) counts it as 2
// characters. The target treats UTF8 as AL32UTF8: newCharset("UTF8") is
// nil (no check), connect.unicodeCharset("UTF8") is true (no national
// columns under national_characters auto), and go-ora v2.9.0 sends the
// standard 4-byte UTF-8 f0 9f 98 80 for converter 871
// (converters/string_conversion.go:82-88; notes/go-ora-audit.md A3 found
// the bytes and left what the server stores a guess). A UTF8 database
// declared to hold the client's bytes as its own stores a sequence that is
// not UTF8 text: readers that convert (an AL32UTF8 or UTF-16 client,
// SQL functions) get replacement characters, and the model's character
// count (1) is not the server's (2), so a full VARCHAR2(n CHAR) column
// fails with ORA-12899 where the models load it. Want: text with
// supplementary characters refused before sending (as for other
// non-Unicode sets), or sent as CESU-8. Not verified on Oracle.
func TestAttackUTF8DatabaseTakesFourByteUTF8(t *testing.T) {
	// was: t.Skip("finding: database charset UTF8 (CESU-8) is treated as AL32UTF8: \"😀\" is bound unchecked as 4-byte UTF-8, which UTF8 does not hold (stored bytes unreadable by converting clients)")
	b := newBinder(Options{Charset: "UTF8"})
	bd := &oraclesql.Bind{Column: "V", Type: table.Type{Kind: table.KindVarchar, Length: 100, CharSemantics: true}}
	if err := b.checkTexts(bd, nil, []string{"ok 😀"}); err == nil {
		t.Fatal(`"ok 😀" into VARCHAR2 of a UTF8 (CESU-8) database: no error, bound as 4-byte UTF-8 (want the character refused, or the text sent as CESU-8)`)
	}
}
