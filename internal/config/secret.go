package config

import (
	"fmt"
	"io"
	"log/slog"
	"strconv"
)

// redacted is what every printing path shows instead of a secret's value.
const redacted = "**redacted**"

// String returns "**redacted**", or "" for an empty secret so that a
// missing password is still visible as missing.
func (s Secret) String() string {
	if s == "" {
		return ""
	}
	return redacted
}

// GoString makes %#v redacted too.
func (s Secret) GoString() string { return s.String() }

// Format redacts the secret under every verb, including %x and %q, which
// would otherwise bypass String.
func (s Secret) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		io.WriteString(f, strconv.Quote(s.String()))
		return
	}
	io.WriteString(f, s.String())
}

// MarshalJSON encodes the redacted form, so summaries and --about output
// built with encoding/json never carry the value.
func (s Secret) MarshalJSON() ([]byte, error) {
	return []byte(strconv.Quote(s.String())), nil
}

// MarshalText encodes the redacted form for text-based encoders.
func (s Secret) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// LogValue implements slog.LogValuer.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.String()) }

// Reveal returns the value. Call it only where the value is handed to the
// driver or the network, never to build a message.
func (s Secret) Reveal() string { return string(s) }
