package benchmark

import (
	"net"
	"sync"
	"sync/atomic"
)

// RoundTrips counts the round trips of every socket it wraps: a round trip
// is a turn of the conversation, the client writing (one request, perhaps
// in several packets) and then reading the reply. go-ora keeps no count;
// the wrapper is installed through its custom dialer
// (OracleConnector.Dialer, via connect.OpenWrapped). Writes that no read
// follows (the final packet of a logoff) are no round trip.
type RoundTrips struct {
	n atomic.Int64
}

// Wrap returns c counting into r.
func (r *RoundTrips) Wrap(c net.Conn) net.Conn { return &countingConn{Conn: c, r: r} }

// Count is the round trips so far.
func (r *RoundTrips) Count() int64 { return r.n.Load() }

type countingConn struct {
	net.Conn
	r     *RoundTrips
	mu    sync.Mutex
	wrote bool // written since the last read
}

func (c *countingConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	if n > 0 {
		c.mu.Lock()
		c.wrote = true
		c.mu.Unlock()
	}
	return n, err
}

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.mu.Lock()
		if c.wrote {
			c.wrote = false
			c.r.n.Add(1)
		}
		c.mu.Unlock()
	}
	return n, err
}
