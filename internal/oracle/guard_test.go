package oracle

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestGuardAbandonsACallThatOutlivesItsContext: a driver call that does
// not return after its context ended (go-ora waiting for the reply to its
// break from a server that stopped answering) is given up breakGrace
// later; the connection is never used or closed again (its call still
// holds it), and the engine takes it for lost.
func TestGuardAbandonsACallThatOutlivesItsContext(t *testing.T) {
	s := &sqlConn{grace: 20 * time.Millisecond} // no *sql.Conn: touching it would panic
	stuck := make(chan struct{})
	defer close(stuck)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := s.guard(ctx, func() error { <-stuck; return nil })
	if !errors.Is(err, errAbandoned) || !s.abandoned || !s.lost {
		t.Fatalf("err %v, abandoned %v, lost %v", err, s.abandoned, s.lost)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("guard returned after %s", d)
	}
	if !connectionLost(err) {
		t.Errorf("connectionLost(%v) = false: the session would keep the connection", err)
	}
	called := false
	if err := s.guard(context.Background(), func() error { called = true; return nil }); !errors.Is(err, errAbandoned) || called {
		t.Errorf("a call on the abandoned connection: %v, ran %v", err, called)
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close of the abandoned connection: %v", err)
	}
}

// TestGuardWaitsForABreaksReply: a call that returns within the grace
// after its context ended returns its own error (the server's ORA-01013),
// and the connection is not abandoned.
func TestGuardWaitsForABreaksReply(t *testing.T) {
	s := &sqlConn{grace: 5 * time.Second}
	ctx, cancel := context.WithCancel(context.Background())
	reply := errors.New("ORA-01013: user requested cancel of current operation")
	err := s.guard(ctx, func() error {
		cancel()
		time.Sleep(20 * time.Millisecond) // the break's round trip
		return reply
	})
	if !errors.Is(err, reply) || s.abandoned {
		t.Fatalf("err %v, abandoned %v", err, s.abandoned)
	}
	if err := s.guard(context.Background(), func() error { return nil }); err != nil {
		t.Fatalf("the next call: %v", err)
	}
}
