package table

import "testing"

func TestBinaryJoinAndFit(t *testing.T) {
	raw := func(n int) Type { return Type{Kind: KindRaw, Length: n} }
	blob := Type{Kind: KindBlob}
	vc := func(n int) Type { return Type{Kind: KindVarchar, Length: n, CharSemantics: true} }
	cases := []struct {
		a, b Type
		want string
	}{
		{raw(4), raw(16), "RAW(16)"},
		{raw(16), raw(4), "RAW(16)"},
		{raw(16), blob, "BLOB"},
		{blob, raw(16), "BLOB"},
		{vc(10), raw(16), "VARCHAR2(32 CHAR)"}, // text stays text, wide enough for base16
		{raw(16), vc(10), "VARCHAR2(32 CHAR)"},
		{vc(10), blob, "CLOB"},
		{raw(2000), vc(10), "VARCHAR2(4000 BYTE)"},
	}
	for _, c := range cases {
		if got := Join(c.a, c.b, 4000).String(); got != c.want {
			t.Errorf("Join(%s, %s) = %s, want %s", c.a, c.b, got, c.want)
		}
	}
	if got := Fit(raw(16), Stats{MaxBytes: 17}, 4000); got != raw(2000) {
		t.Errorf("Fit RAW(16) with 17 bytes = %s, want RAW(2000)", got)
	}
	if got := Fit(raw(16), Stats{MaxBytes: 2001}, 4000); got != blob {
		t.Errorf("Fit RAW(16) with 2001 bytes = %s, want BLOB", got)
	}
	if got := Fit(raw(16), Stats{MaxBytes: 2001}, 32767); got != raw(32767) {
		t.Errorf("Fit RAW(16) with 2001 bytes, EXTENDED = %s, want RAW(32767)", got)
	}
	if !inPlace(raw(16), raw(2000)) || inPlace(raw(16), blob) {
		t.Error("RAW widens in place; RAW to BLOB rewrites")
	}
	for _, m := range []struct {
		from, to Type
		in, want string
	}{
		{raw(4), blob, "3q2+7w==", "3q2+7w=="},
		{raw(4), vc(8), "3q2+7w==", "DEADBEEF"},
	} {
		got, err := MigrateValue(m.from, m.to, m.in)
		if err != nil || got != m.want {
			t.Errorf("MigrateValue(%s, %s, %q) = %q, %v; want %q", m.from, m.to, m.in, got, err, m.want)
		}
	}
	if _, err := MigrateValue(blob, Type{Kind: KindClob}, "3q2+7w=="); err == nil {
		t.Error("BLOB to CLOB has no exact conversion in SQL: want an error")
	}
}
