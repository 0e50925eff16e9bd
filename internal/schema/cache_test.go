package schema

import (
	"testing"
)

// A text compiled before gives the same compiled parts and a Schema of
// its own: KeepNumberText on one stream's schema leaves the other's alone,
// and a different text compiles anew. An invalid text fails every time.
func TestCacheSharesCompiledPartsOnly(t *testing.T) {
	const text = `{"type":"object","properties":{"id":{"type":"integer"},"doc":{"type":["null","object"]}}}`
	var c Cache
	a, err := c.Compile([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Compile([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if a == b || a.Root != b.Root || a.validator != b.validator || a.fast != b.fast {
		t.Fatalf("a repeated text: want the same compiled parts in two Schemas (%p %p)", a, b)
	}
	a.KeepNumberText(NumberPaths{Inside: [][]string{{"doc"}}})
	if b.asText != nil {
		t.Fatal("KeepNumberText on one schema changed the other")
	}
	big := `{"doc": {"n": 1e400}}`
	if err := a.ValidateRaw([]byte(big)); err != nil {
		t.Errorf("a keeps number text under doc: %v", err)
	}
	if err := b.ValidateRaw([]byte(big)); err == nil {
		t.Error("b: 1e400 accepted, want NUMBER's bounds")
	}
	other, err := c.Compile([]byte(`{"type":"object","properties":{"id":{"type":"string"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if other.Root == a.Root {
		t.Fatal("a different text got the cached tree")
	}
	for i := 0; i < 2; i++ {
		if _, err := c.Compile([]byte(`{"type":"object","properties":{"id":{"type":7}}}`)); err == nil {
			t.Fatalf("compile %d of an invalid schema: no error", i+1)
		}
	}
}
