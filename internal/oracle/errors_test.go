package oracle_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
)

// TestStatementErrorsAreNotARecords: an error of the statement (every row
// fails with it) is reported as the statement's, without a line, whether
// the ORA code says so or every probe fails alike (SPEC §6.3); a row
// error of one record with the same unknown code is still narrowed down
// to its line, also when that record is the first.
func TestStatementErrorsAreNotARecords(t *testing.T) {
	const every = 1 << 20 // fails every execute
	for _, c := range []struct {
		name      string
		fault     fake.Fault
		bad       map[int]string // row values that make the narrow table refuse
		wantLine  int64
		maxMerges int // executes allowed, the failed one included
	}{
		{"ORA-00904 invalid identifier", fake.Fault{Code: 904, Times: every}, nil, 0, 1},
		{"ORA-00932 inconsistent datatypes", fake.Fault{Code: 932, Times: every}, nil, 0, 1},
		{"ORA-00997 illegal use of LONG", fake.Fault{Code: 997, Times: every}, nil, 0, 1},
		{"ORA-01461 LONG bind", fake.Fault{Code: 1461, Times: every}, nil, 0, 1},
		{"ORA-24816 LONG bind order", fake.Fault{Code: 24816, Times: every}, nil, 0, 1},
		{"ORA-00942 parse error", fake.Fault{Code: 942, Times: every}, nil, 0, 1},
		// ORA-04088 (error during execution of trigger) names neither a
		// row nor the statement: every probe failing alike decides.
		{"unknown code, every row", fake.Fault{Code: 4088, Times: every}, nil, 0, 1 + 10 + 1},
		{"unknown code, one record", fake.Fault{Code: 4088, Times: every, Match: "bad"}, map[int]string{737: "bad"}, 837, 1 + 10 + 1},
		{"unknown code, the first record", fake.Fault{Code: 4088, Times: every, Match: "bad"}, map[int]string{0: "bad"}, 100, 1 + 10 + 1},
		// A row code is decided by the code: even a first row failing is
		// that record's (the narrow table refuses a 5-character value).
		{"row code, the first record", fake.Fault{}, map[int]string{0: "long!"}, 100, 1 + 10},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := defaultRig(t)
			s := session(t, r, narrow())
			if c.fault.Code != 0 {
				c.fault.Op = fake.OpMerge
				r.db.Inject(c.fault)
			}
			_, err := s.Load(context.Background(), []engine.Step{narrowWrite(1000, c.bad)})
			var oe *oracle.Error
			if !errors.As(err, &oe) {
				t.Fatalf("err = %v, want *oracle.Error", err)
			}
			if oe.Line != c.wantLine {
				t.Errorf("line %d, want %d (%v)", oe.Line, c.wantLine, err)
			}
			msg := err.Error()
			if c.wantLine == 0 && (strings.Contains(msg, "line ") || !strings.Contains(msg, "the MERGE fails as a statement")) {
				t.Errorf("message %q does not report the statement's error", msg)
			}
			if c.wantLine > 0 && !strings.Contains(msg, fmt.Sprintf("line %d", c.wantLine)) {
				t.Errorf("message %q does not name line %d", msg, c.wantLine)
			}
			if code := c.fault.Code; code != 0 && !strings.Contains(msg, fmt.Sprintf("ORA-%05d", code)) {
				t.Errorf("message %q does not name ORA-%05d", msg, code)
			}
			if n := r.db.Calls(fake.OpMerge); n > c.maxMerges {
				t.Errorf("%d MERGE executes, want at most %d", n, c.maxMerges)
			}
			if n := len(r.db.Rows("DRY_RUN.NARROW")); n != 0 {
				t.Errorf("%d rows committed by a failed batch", n)
			}
		})
	}
}

// statementTimeout is long enough that no ordinary fake call reaches it
// and short enough to wait for: only a hanging call (fake.Fault.Hang,
// which returns when its context is done) times out.
const statementTimeout = 200 * time.Millisecond

// TestStatementTimeoutIsReportedAsATimeout: a statement that runs past
// statement_timeout_seconds fails as go-ora fails it (ORA-01013 after a
// break); the engine reports a timeout naming the setting, does not
// bisect or retry, and never uses the interrupted session again.
func TestStatementTimeoutIsReportedAsATimeout(t *testing.T) {
	for _, op := range []fake.Op{fake.OpMerge, fake.OpDDL} {
		t.Run(op.String(), func(t *testing.T) {
			r := newRig(t, oracle.Options{StatementTimeout: statementTimeout}, oraclesql.Options{})
			s := session(t, r)
			r.db.Inject(fake.Fault{Op: op, Hang: true})
			var err error
			if op == fake.OpDDL {
				err = s.Apply(context.Background(), createChange(t, narrow(), "NARROW"))
			} else {
				if err := s.Apply(context.Background(), createChange(t, narrow(), "NARROW")); err != nil {
					t.Fatal(err)
				}
				_, err = s.Load(context.Background(), []engine.Step{narrowWrite(1000, nil)})
			}
			var oe *oracle.Error
			if !errors.As(err, &oe) || oe.Code != 1013 || oe.Line != 0 {
				t.Fatalf("err = %v, want ORA-01013 without a line", err)
			}
			if !strings.Contains(err.Error(), "timed out after 200ms (statement_timeout_seconds)") || !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("error %q does not report the timeout", err)
			}
			if got := r.db.Calls(op); got != 1 && op == fake.OpMerge {
				t.Errorf("%d MERGE executes, want 1 (no bisection, no retry)", got)
			}
			dials := r.db.Calls(fake.OpDial)
			// The session goes on, on a fresh connection.
			if err := s.Apply(context.Background(), createChange(t, narrow(), "NARROW2")); err != nil {
				t.Fatalf("the next call: %v", err)
			}
			if _, err := s.Load(context.Background(), []engine.Step{narrowWrite(10, nil)}); err != nil && op == fake.OpMerge {
				t.Fatalf("the next load: %v", err)
			}
			if got := r.db.Calls(fake.OpDial); got != dials+1 {
				t.Errorf("%d dials after the timeout, want 1 (a fresh session)", got-dials)
			}
		})
	}
}

// TestProtocolErrorsRetryTheChunkInHalves: go-ora protocol failures
// (#697 ORA-03146/03137, #724, go-ora's own "TTC error") are transient: the
// session is dropped (the fake fails any later call on it), the batch is
// retried, and a failure that repeats halves the failing execute.
func TestProtocolErrorsRetryTheChunkInHalves(t *testing.T) {
	for _, c := range []struct {
		name   string
		fault  fake.Fault
		calls  int   // MERGE executes, the failed ones included
		landed []int // rows of each MERGE execute that succeeded
	}{
		{"ORA-03146 once", fake.Fault{Code: 3146}, 2, []int{8}},
		{"ORA-03137 twice", fake.Fault{Code: 3137, Times: 2}, 2 + 2, []int{4, 4}},
		{"ORA-03146 three times", fake.Fault{Code: 3146, Times: 3}, 3 + 4, []int{2, 2, 2, 2}},
		{"TTC error", fake.Fault{Err: errors.New("TTC error: received code 5 during response reading")}, 2, []int{8}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := defaultRig(t)
			s := session(t, r, narrow())
			c.fault.Op = fake.OpMerge
			r.db.Inject(c.fault)
			dials := r.db.Calls(fake.OpDial)
			res, err := s.Load(context.Background(), []engine.Step{narrowWrite(8, nil)})
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			if res.Written != 8 {
				t.Errorf("result %+v, want 8 written", res)
			}
			if n := len(r.db.Rows("DRY_RUN.NARROW")); n != 8 {
				t.Errorf("%d rows stored, want 8", n)
			}
			var got []int
			for _, args := range r.db.Args("MERGE") {
				got = append(got, reflect.ValueOf(args[0]).Len())
			}
			if fmt.Sprint(got) != fmt.Sprint(c.landed) || r.db.Calls(fake.OpMerge) != c.calls {
				t.Errorf("%d MERGE executes, those that landed of %v rows; want %d and %v", r.db.Calls(fake.OpMerge), got, c.calls, c.landed)
			}
			if n, want := r.db.Calls(fake.OpDial)-dials, max(1, c.fault.Times); n != want {
				t.Errorf("%d dials, want %d (a fresh session per failure)", n, want)
			}
		})
	}
}
