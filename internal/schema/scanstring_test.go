package schema

import (
	"math/rand"
	"testing"
	"unicode/utf8"

	"github.com/target-oracle/target-oracle/internal/jsonscan"
)

// scanStringRef is scanString as it was written before it went a word at
// a time and checked UTF-8 in the same pass: jsonscan.Special to the next
// byte to look at, utf8.Valid over the whole body at the end.
func scanStringRef(b []byte, i int) (int, int) {
	flags := 0
	j := i + 1
	for {
		j = jsonscan.Special(b, j)
		if j >= len(b) {
			return -1, 0
		}
		switch c := b[j]; {
		case c == '"':
			if flags&strHigh != 0 && !utf8.Valid(b[i+1:j]) {
				return -1, 0
			}
			return j + 1, flags
		case c == '\\':
			n := jsonscan.EscapeLen(b, j)
			if n == 0 {
				return -1, 0
			}
			flags |= strEscaped
			j += n
		case c < 0x20:
			return -1, 0
		default:
			flags |= strHigh
			j++
		}
	}
}

func checkScanString(t *testing.T, b []byte) {
	t.Helper()
	w := walker{b: b}
	end, flags := w.scanString(0)
	wend, wflags := scanStringRef(b, 0)
	if end != wend || flags != wflags {
		t.Fatalf("scanString(%q) = %d, %d; the reference gives %d, %d", b, end, flags, wend, wflags)
	}
}

// TestScanStringBytes puts every byte value at every offset of the first
// words of a string, after plain text and before text of each kind.
func TestScanStringBytes(t *testing.T) {
	tails := []string{`"`, `abc"`, `abcdefghijkl"`, `\n"`, "\xc3\xa9\"", "\xff\"", "\x01\"", `\u00e9"`, `\ud83d\ude00"`, `\ud83d"`, ""}
	for c := 0; c < 256; c++ {
		for off := 0; off < 17; off++ {
			for _, tail := range tails {
				b := []byte{'"'}
				for k := 0; k < off; k++ {
					b = append(b, 'a'+byte(k%26))
				}
				b = append(b, byte(c))
				b = append(b, tail...)
				checkScanString(t, b)
				checkScanString(t, append(b, "   , \"x\": 1}"...))
			}
		}
	}
}

func TestScanStringRandom(t *testing.T) {
	alphabet := []byte("aZ09 \"\\/nu\x00\x1f\x7f\x80\xbf\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xed\xa0\x80\xffDd8Ee")
	rnd := rand.New(rand.NewSource(1))
	for n := 0; n < 200000; n++ {
		b := []byte{'"'}
		for k := rnd.Intn(40); k > 0; k-- {
			b = append(b, alphabet[rnd.Intn(len(alphabet))])
		}
		if rnd.Intn(2) == 0 {
			b = append(b, '"')
		}
		checkScanString(t, b)
	}
}

func FuzzScanString(f *testing.F) {
	for _, s := range []string{`"abc"`, `"a\"b"`, "\"\xc3\xa9\"", "\"\xff\"", `"\ud83d\ude00"`, `"12345678901234567890\n"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 || b[0] != '"' {
			b = append([]byte{'"'}, b...)
		}
		checkScanString(t, b)
	})
}
