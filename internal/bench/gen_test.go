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

// Every shape writes valid Singer lines of the shape its name says.
func TestGenerateShapes(t *testing.T) {
	cases := []struct {
		shape   string
		streams int // distinct streams of the records
		props   int // properties of each record
		depth   int // nesting of objects in a record
	}{
		{"wide", 1, 200, 1}, {"streams:7", 7, 7, 1}, {"nested:3", 1, 3, 4}, {"nested:6", 1, 3, 7}, {"bench", 1, 11, 2},
	}
	for _, c := range cases {
		var b bytes.Buffer
		if err := GenerateShape(&b, c.shape, 50); err != nil {
			t.Fatal(err)
		}
		streams := map[string]bool{}
		records := 0
		for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("%s: %v: %.200s", c.shape, err, l)
			}
			if m["type"] != "RECORD" {
				continue
			}
			records++
			streams[m["stream"].(string)] = true
			rec := m["record"].(map[string]any)
			if len(rec) != c.props {
				t.Fatalf("%s: record has %d properties, want %d", c.shape, len(rec), c.props)
			}
			if d := depth(rec); d != c.depth {
				t.Fatalf("%s: depth %d, want %d", c.shape, d, c.depth)
			}
		}
		if records != 50 || len(streams) != c.streams {
			t.Fatalf("%s: %d records over %d streams", c.shape, records, len(streams))
		}
	}
	if err := GenerateShape(&bytes.Buffer{}, "streams:x", 1); err == nil {
		t.Fatal("a bad shape was accepted")
	}
}

func depth(v any) int {
	m, ok := v.(map[string]any)
	if !ok {
		return 0
	}
	d := 0
	for _, x := range m {
		d = max(d, depth(x))
	}
	return d + 1
}
