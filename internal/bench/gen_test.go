package bench

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestGenerateShape(t *testing.T) {
	var b bytes.Buffer
	if err := Generate(&b, 20000); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 1+20000+2 {
		t.Fatalf("%d lines", len(lines))
	}
	total := 0
	for _, l := range lines[1:] {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		if m["type"] == "RECORD" {
			total += len(l)
			if n := len(m["record"].(map[string]any)); n != 11 {
				t.Fatalf("record has %d properties", n)
			}
		}
	}
	if avg := total / 20000; avg < 440 || avg > 510 {
		t.Fatalf("average record line %d bytes, want ~475", avg)
	}
	n, err := Baseline(bytes.NewReader(b.Bytes()))
	if err != nil || n != 20000 {
		t.Fatalf("baseline counted %d (%v)", n, err)
	}
}
