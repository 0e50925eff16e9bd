package streammap

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/target-oracle/target-oracle/internal/value"
)

// clock is the source of datetime.datetime.now(); tests replace it.
type clock func() time.Time

// datetimeModule is the subset of Python's datetime module that stream-map
// examples use:
//
//	datetime.datetime.now([tz]), .utcnow(), .fromisoformat(s), .fromtimestamp(ts[, tz])
//	datetime.date.today(), .fromisoformat(s)
//	datetime.timezone.utc
//
// Results have isoformat(), strftime(fmt), timestamp(), date() and the
// fields year, month, day, hour, minute, second, microsecond. Unlike Python,
// a naive now() or fromtimestamp() is in UTC, not the host's local time:
// the target stores date-times without a zone as UTC.
func datetimeModule(now clock) *starlarkstruct.Module {
	b := starlark.NewBuiltin
	dt := &starlarkstruct.Module{Name: "datetime.datetime", Members: starlark.StringDict{
		"now": b("datetime.now", func(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var tz starlark.Value = starlark.None
			if err := starlark.UnpackArgs(fn.Name(), args, kw, "tz?", &tz); err != nil {
				return nil, err
			}
			aware, err := isUTC(tz)
			return &dateTime{t: now().UTC(), aware: aware}, err
		}),
		"utcnow": b("datetime.utcnow", func(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(fn.Name(), args, kw, 0); err != nil {
				return nil, err
			}
			return &dateTime{t: now().UTC()}, nil
		}),
		"fromisoformat": b("datetime.fromisoformat", fromISO(false)),
		"fromtimestamp": b("datetime.fromtimestamp", fromTimestamp),
	}}
	date := &starlarkstruct.Module{Name: "datetime.date", Members: starlark.StringDict{
		"today": b("date.today", func(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(fn.Name(), args, kw, 0); err != nil {
				return nil, err
			}
			return &dateTime{t: now().UTC().Truncate(24 * time.Hour), date: true}, nil
		}),
		"fromisoformat": b("date.fromisoformat", fromISO(true)),
	}}
	tz := &starlarkstruct.Module{Name: "datetime.timezone", Members: starlark.StringDict{"utc": utcZone{}}}
	return &starlarkstruct.Module{Name: "datetime", Members: starlark.StringDict{
		"datetime": dt, "date": date, "timezone": tz,
	}}
}

// utcZone is datetime.timezone.utc, the only time zone offered.
type utcZone struct{}

func (utcZone) String() string        { return "datetime.timezone.utc" }
func (utcZone) Type() string          { return "datetime.timezone" }
func (utcZone) Freeze()               {}
func (utcZone) Truth() starlark.Bool  { return true }
func (utcZone) Hash() (uint32, error) { return 0x7c, nil }

func isUTC(tz starlark.Value) (bool, error) {
	switch tz.(type) {
	case starlark.NoneType:
		return false, nil
	case utcZone:
		return true, nil
	}
	return false, fmt.Errorf("only datetime.timezone.utc is supported as a time zone, got %s", tz.Type())
}

// fromISO is datetime.datetime.fromisoformat (or, with dateOnly,
// datetime.date.fromisoformat). A date-time must follow the target's one
// grammar (SPEC §4, value.ParseDateTime): what a stream map parses is what
// a record's date-time column accepts, seconds and zone optional. A zone
// makes the result aware (held in UTC), none naive. datetime.fromisoformat
// also takes a bare date, as Python does: midnight, naive.
func fromISO(dateOnly bool) func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var s string
		if err := starlark.UnpackPositionalArgs(fn.Name(), args, kw, 1, &s); err != nil {
			return nil, err
		}
		if len(s) == len("2006-01-02") {
			if value.CheckDate(s) != nil {
				return nil, fmt.Errorf("%s: invalid isoformat string: %q", fn.Name(), s)
			}
			t, _ := time.Parse("2006-01-02", s)
			return &dateTime{t: t, date: dateOnly}, nil
		}
		dt, err := value.ParseDateTime(s)
		if dateOnly || err != nil {
			return nil, fmt.Errorf("%s: invalid isoformat string: %q", fn.Name(), s)
		}
		t := time.Date(dt.Year, time.Month(dt.Month), dt.Day, dt.Hour, dt.Minute, dt.Second, dt.Nanosecond, time.UTC)
		return &dateTime{t: t, aware: value.HasZone(s)}, nil
	}
}

func fromTimestamp(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var ts starlark.Value
	var tz starlark.Value = starlark.None
	if err := starlark.UnpackArgs(fn.Name(), args, kw, "timestamp", &ts, "tz?", &tz); err != nil {
		return nil, err
	}
	f, ok := starlark.AsFloat(ts)
	if !ok {
		return nil, fmt.Errorf("%s: got %s, want a number", fn.Name(), ts.Type())
	}
	aware, err := isUTC(tz)
	sec := int64(f)
	nsec := int64((f - float64(sec)) * 1e9)
	t := time.Unix(sec, nsec).UTC().Round(time.Microsecond)
	return &dateTime{t: t, aware: aware}, err
}

// dateTime is a Python datetime.datetime (or, with date, datetime.date).
// Values are held in UTC; aware ones print their +00:00 offset.
type dateTime struct {
	t     time.Time
	aware bool
	date  bool
}

var _ starlark.HasAttrs = (*dateTime)(nil)
var _ starlark.Comparable = (*dateTime)(nil)

func (d *dateTime) String() string { return d.isoformat() }
func (d *dateTime) Type() string {
	if d.date {
		return "datetime.date"
	}
	return "datetime.datetime"
}
func (d *dateTime) Freeze()               {}
func (d *dateTime) Truth() starlark.Bool  { return true }
func (d *dateTime) Hash() (uint32, error) { return uint32(d.t.UnixNano()), nil }

func (d *dateTime) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	o := y.(*dateTime)
	if o.date != d.date || o.aware != d.aware {
		return false, fmt.Errorf("cannot compare %s with %s (naive and aware or date and datetime)", d, o)
	}
	return threeway(op, d.t.Compare(o.t)), nil
}

func threeway(op syntax.Token, c int) bool {
	switch op {
	case syntax.EQL:
		return c == 0
	case syntax.NEQ:
		return c != 0
	case syntax.LT:
		return c < 0
	case syntax.LE:
		return c <= 0
	case syntax.GT:
		return c > 0
	}
	return c >= 0
}

// isoformat is Python's isoformat(): microseconds only when non-zero.
func (d *dateTime) isoformat() string {
	if d.date {
		return d.t.Format("2006-01-02")
	}
	s := d.t.Format("2006-01-02T15:04:05")
	if us := d.t.Nanosecond() / 1000; us != 0 {
		s += fmt.Sprintf(".%06d", us)
	}
	if d.aware {
		s += "+00:00"
	}
	return s
}

func (d *dateTime) Attr(name string) (starlark.Value, error) {
	t := d.t
	switch name {
	case "year":
		return starlark.MakeInt(t.Year()), nil
	case "month":
		return starlark.MakeInt(int(t.Month())), nil
	case "day":
		return starlark.MakeInt(t.Day()), nil
	}
	if !d.date {
		switch name {
		case "hour":
			return starlark.MakeInt(t.Hour()), nil
		case "minute":
			return starlark.MakeInt(t.Minute()), nil
		case "second":
			return starlark.MakeInt(t.Second()), nil
		case "microsecond":
			return starlark.MakeInt(t.Nanosecond() / 1000), nil
		}
	}
	return d.method(name), nil
}

func (d *dateTime) method(name string) starlark.Value {
	m := func(f func(args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error)) starlark.Value {
		return starlark.NewBuiltin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return f(args, kw)
		}).BindReceiver(d)
	}
	switch name {
	case "isoformat":
		return m(func(args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			sep := "T"
			if err := starlark.UnpackArgs(name, args, kw, "sep?", &sep); err != nil {
				return nil, err
			}
			return starlark.String(strings.Replace(d.isoformat(), "T", sep, 1)), nil
		})
	case "strftime":
		return m(func(args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var format string
			if err := starlark.UnpackPositionalArgs(name, args, kw, 1, &format); err != nil {
				return nil, err
			}
			s, err := strftime(d, format)
			return starlark.String(s), err
		})
	case "timestamp":
		return m(func(args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return starlark.Float(float64(d.t.UnixMicro()) / 1e6), starlark.UnpackPositionalArgs(name, args, kw, 0)
		})
	case "date":
		return m(func(args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return &dateTime{t: d.t.Truncate(24 * time.Hour), date: true}, starlark.UnpackPositionalArgs(name, args, kw, 0)
		})
	}
	return nil
}

func (d *dateTime) AttrNames() []string {
	return []string{"date", "day", "hour", "isoformat", "microsecond", "minute", "month", "second", "strftime", "timestamp", "year"}
}

// strftime implements the portable directives of Python's strftime.
func strftime(d *dateTime, format string) (string, error) {
	t := d.t
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			b.WriteByte(c)
			continue
		}
		i++
		switch format[i] {
		case 'Y':
			fmt.Fprintf(&b, "%04d", t.Year())
		case 'y':
			fmt.Fprintf(&b, "%02d", t.Year()%100)
		case 'm':
			fmt.Fprintf(&b, "%02d", int(t.Month()))
		case 'd':
			fmt.Fprintf(&b, "%02d", t.Day())
		case 'H':
			fmt.Fprintf(&b, "%02d", t.Hour())
		case 'I':
			fmt.Fprintf(&b, "%02d", (t.Hour()+11)%12+1)
		case 'p':
			b.WriteString(t.Format("PM"))
		case 'M':
			fmt.Fprintf(&b, "%02d", t.Minute())
		case 'S':
			fmt.Fprintf(&b, "%02d", t.Second())
		case 'f':
			fmt.Fprintf(&b, "%06d", t.Nanosecond()/1000)
		case 'j':
			fmt.Fprintf(&b, "%03d", t.YearDay())
		case 'a':
			b.WriteString(t.Format("Mon"))
		case 'A':
			b.WriteString(t.Format("Monday"))
		case 'b':
			b.WriteString(t.Format("Jan"))
		case 'B':
			b.WriteString(t.Format("January"))
		case 'z':
			if d.aware {
				b.WriteString("+0000")
			}
		case 'Z':
			if d.aware {
				b.WriteString("UTC")
			}
		case 's':
			b.WriteString(strconv.FormatInt(t.Unix(), 10))
		case '%':
			b.WriteByte('%')
		default:
			return "", fmt.Errorf("strftime: directive %%%c is not supported", format[i])
		}
	}
	return b.String(), nil
}
