package connect

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"time"
)

// defaultConnectTimeout bounds a connection when neither the settings nor
// the dsn give connect_timeout_seconds (a Config built in code).
const defaultConnectTimeout = 30 * time.Second

// slowConnect is how long a connection may take before a warning says it
// is still being attempted (once per attempt).
const slowConnect = 5 * time.Second

// attempt is one connection attempt. go-ora dials through it
// (OracleConnector.Dialer), so it knows the address being tried and holds
// every socket opened for the attempt, and closes them all when the
// connect timeout passes.
//
// go-ora bounds only the TCP dial by CONNECT TIMEOUT
// (network/session.go:518-545). The TLS, TNS and login exchanges are
// bounded by the context alone, and not even by that: when the context
// ends, go-ora's watcher writes a final packet under the session lock
// (session.go:195-231, 626-633, 912-930), a lock held by a TLS handshake
// that waits for the server, so a listener that accepts and never answers
// holds the connection until TCP keep-alive gives up. Closing the socket
// ends every read and write at once. The sockets are handed to go-ora as
// they are (no wrapper): its out-of-band break needs a *net.TCPConn
// (network/net_others.go:12-13), and it resets read and write deadlines on
// every packet (session.go:257-291), so deadlines would not hold either.
type attempt struct {
	mu      sync.Mutex
	conns   []net.Conn
	addr    string  // the address dialed last
	expired bool    // the timeout passed and closed the sockets
	done    bool    // the attempt ended; no more sockets are kept
	tunnel  *tunnel // nil: dial directly
	wrap    func(net.Conn) net.Conn
	// dial bounds each address's TCP connect (the dsn's
	// TRANSPORT_CONNECT_TIMEOUT or CONNECT_TIMEOUT; 0: the attempt's
	// bound only). go-ora tries the next address of a descriptor when a
	// dial fails, so a dead first address leaves time for the others.
	dial time.Duration
}

// DialContext implements go-ora's configurations.DialerContext.
func (a *attempt) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	a.mu.Lock()
	a.addr = address
	a.mu.Unlock()
	if a.dial > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, a.dial)
		defer cancel()
	}
	var conn net.Conn
	var err error
	if a.tunnel != nil {
		conn, err = a.tunnel.dial(ctx, address)
	} else {
		var d net.Dialer
		conn, err = d.DialContext(ctx, network, address)
	}
	if err != nil {
		return nil, err
	}
	if a.wrap != nil {
		conn = a.wrap(conn)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.expired || a.done {
		conn.Close()
		return nil, context.DeadlineExceeded
	}
	a.conns = append(a.conns, conn)
	return conn, nil
}

// expire closes every socket of an attempt still under way.
func (a *attempt) expire() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.done {
		return
	}
	a.expired = true
	for _, c := range a.conns {
		c.Close()
	}
}

// finish ends the attempt and reports whether the timeout had passed. It
// closes the sockets of a failed attempt (go-ora does not always).
func (a *attempt) finish(failed bool) (expired bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.done = true
	if failed {
		for _, c := range a.conns {
			c.Close()
		}
	}
	a.conns = nil
	return a.expired
}

func (a *attempt) address() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.addr
}

// timing bounds a connection attempt and reports a slow one.
type timing struct {
	timeout time.Duration // the whole attempt: TCP, TLS, TNS and login
	setting string        // what gave timeout, for the error: connect_timeout_seconds, the descriptor's CONNECT_TIMEOUT
	dial    time.Duration // each address's TCP connect; 0: timeout only
	slow    time.Duration // warn once when an attempt takes longer
	log     *slog.Logger
	tunnel  *tunnel // ssh_tunnel, when enabled
	wrap    func(net.Conn) net.Conn
}

// bound runs connect with a context that ends at the timeout and a socket
// watchdog (attempt) that enforces it; what is the connection's name for
// messages. The error of an attempt that timed out says so and names the
// address.
func (tm timing) bound(ctx context.Context, what string, connect func(context.Context, *attempt) error) error {
	if tm.timeout <= 0 {
		tm.timeout = defaultConnectTimeout
	}
	if tm.setting == "" {
		tm.setting = "connect_timeout_seconds"
	}
	a := &attempt{tunnel: tm.tunnel, wrap: tm.wrap, dial: tm.dial}
	cctx, cancel := context.WithTimeout(ctx, tm.timeout)
	defer cancel()
	watchdog := time.AfterFunc(tm.timeout, a.expire)
	// The caller's context ending (a signal while connecting) closes the
	// sockets as the timeout does: go-ora does not stop a handshake for it.
	stopOnCancel := context.AfterFunc(ctx, a.expire)
	var slow *time.Timer
	if tm.slow > 0 && tm.slow < tm.timeout && tm.log != nil {
		slow = time.AfterFunc(tm.slow, func() {
			tm.log.Warn(fmt.Sprintf("still connecting to Oracle at %s after %s (%s); the connect timeout is %s",
				what, tm.slow, orUnknown(a.address()), tm.timeout))
		})
	}
	err := connect(cctx, a)
	watchdog.Stop()
	stopOnCancel()
	if slow != nil {
		slow.Stop()
	}
	expired := a.finish(err != nil)
	switch {
	case err == nil && !expired:
		return nil
	case ctx.Err() != nil:
		if err == nil { // connected as the caller gave up, on a socket now closed
			err = ctx.Err()
		}
		return err // the caller's context ended first: its error stands
	case expired || errors.Is(cctx.Err(), context.DeadlineExceeded):
		return &timeoutError{what: what, addr: a.address(), after: tm.timeout, setting: tm.setting, cause: err}
	}
	return err
}

// timeoutError is a connection attempt that took longer than the
// connect timeout.
type timeoutError struct {
	what, addr string
	after      time.Duration
	setting    string // what gave the bound
	cause      error  // what go-ora returned when its socket was closed; nil if it succeeded just too late
}

func (e *timeoutError) Error() string {
	return fmt.Sprintf("timed out after %s connecting to %s (TCP connect, SSH tunnel, TLS, TNS and login handshake; "+
		"%s)", e.after, orUnknown(e.addr), e.setting)
}

// Timeout and Temporary make it a net.Error, as a dial timeout is: the
// connection failed, the caller's context did not end (so it does not
// match context.DeadlineExceeded, which means "the caller gave up").
func (e *timeoutError) Timeout() bool   { return true }
func (e *timeoutError) Temporary() bool { return true }

var _ net.Error = (*timeoutError)(nil)
