package singer

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/inputerr"
)

// A UTF-8 byte order mark at the very start of the input is skipped: RFC
// 8259 §8.1 lets a parser ignore it, and Windows tools (PowerShell's
// Out-File and Set-Content -Encoding utf8, Notepad) write one in front of
// a file's first line. Anywhere else it is what it is: a character that
// starts no JSON value, so the line is invalid input.
func TestByteOrderMarkAtStartOnly(t *testing.T) {
	const bom = "\ufeff"
	state := `{"type":"STATE","value":{"a":1}}`
	for _, tc := range []struct {
		name, in string
		states   int
		badLine  int64 // 0: no error
	}{
		{"at the start", bom + state + "\n" + state + "\n", 2, 0},
		{"at the start, CRLF", bom + state + "\r\n", 1, 0},
		{"alone on a blank first line", bom + "\n" + state + "\n", 1, 0},
		{"at the start of a later line", state + "\n" + bom + state + "\n", 1, 2},
		{"twice at the start", bom + bom + state + "\n", 0, 1},
		{"inside a value", `{"type":"STATE","value":{"a":1}` + bom + "}\n", 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tc.in), ReaderOptions{})
			states := 0
			for {
				m, err := r.Next()
				if err == io.EOF {
					break
				}
				var ie *inputerr.Error
				if err != nil {
					if !errors.As(err, &ie) || ie.Line != tc.badLine {
						t.Fatalf("error %v, want an input error at line %d", err, tc.badLine)
					}
					continue
				}
				if m.Type == TypeState && string(m.Value) == `{"a":1}` {
					states++
				}
			}
			if states != tc.states {
				t.Errorf("%d states, want %d", states, tc.states)
			}
		})
	}
}
