package wirepeer

import (
	"context"
	"net"
	"sync"
)

// TurnCounter is a dialer for go-ora's OracleConnector.Dialer that counts
// round trips as the client lives them: a turn is a read that follows a
// write on the same connection (the client sent a request and now waits
// for the reply). It counts what the driver does on the socket, whatever
// the peer makes of it, so a round trip the peer merged or split would
// still be counted right.
type TurnCounter struct {
	mu    sync.Mutex
	turns int
}

// DialContext implements go-ora's configurations.DialerContext.
func (t *TurnCounter) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, network, address)
	if err != nil {
		return nil, err
	}
	return &turnConn{Conn: c, t: t}, nil
}

// Turns returns the round trips of every connection so far.
func (t *TurnCounter) Turns() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.turns
}

type turnConn struct {
	net.Conn
	t *TurnCounter
	// wrote: the client wrote since its last read. go-ora reads and
	// writes a connection from one goroutine at a time but a break is
	// written from another: the lock keeps the flag consistent.
	mu    sync.Mutex
	wrote bool
}

func (c *turnConn) Write(b []byte) (int, error) {
	c.mu.Lock()
	c.wrote = true
	c.mu.Unlock()
	return c.Conn.Write(b)
}

func (c *turnConn) Read(b []byte) (int, error) {
	c.mu.Lock()
	turn := c.wrote
	c.wrote = false
	c.mu.Unlock()
	if turn {
		c.t.mu.Lock()
		c.t.turns++
		c.t.mu.Unlock()
	}
	return c.Conn.Read(b)
}
