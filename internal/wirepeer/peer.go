// Package wirepeer is a wire-level test double of an Oracle server: it
// speaks enough TNS and TTC for the real go-ora v2.9.0 client to connect
// over loopback, log in and run array INSERTs, and records what the client
// put on the wire (each bind's declared type, form, character set and
// length, the row values, the round trips).
//
// It is test code: only _test.go files import it, and a test checks that
// the shipped binary does not link it. Its codec is written from the
// protocol, not from go-ora's encoder, so that a mistake shared by an
// encoder and its mirror decoder cannot cancel out. See README.md.
package wirepeer

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
)

// Character set ids the peer knows.
const (
	AL32UTF8     = 873
	AL16UTF16    = 2000
	WE8MSWIN1252 = 178
)

// Facts are what the peer tells the client about the server. The zero
// value is completed by Start with an AL32UTF8 database, AL16UTF16
// national set, MAX_STRING_SIZE=STANDARD, user scott/tiger and service
// FREEPDB1.
type Facts struct {
	User, Password string
	Service        string // other service names are refused (ORA-12514)
	Charset        int
	NCharset       int
	// Varchar32K sets the runtime capability bit that tells go-ora the
	// server takes 32,767-byte VARCHAR binds (MAX_STRING_SIZE=EXTENDED).
	Varchar32K bool
	// HoldOn: an execute whose SQL contains this text gets no reply until
	// the client breaks it (a MARKER packet); then it fails with
	// ORA-01013. Held reports each held execute.
	HoldOn string
	// FailRow, when set, is asked for each row of an INSERT: a non-zero
	// ORA code fails that row. In batch-error mode (go-ora asks for it
	// for arrays of more than one row) the other rows succeed and the
	// reply is ORA-24381 with each failed row's code, offset and message;
	// otherwise the execute stops at the failed row.
	FailRow func(e *Execute, row int) int
	// QueryID, when not 0, is sent with every query's first reply (the
	// return parameters message): go-ora v2.9.0 then prints "query ID: "
	// and the id with fmt.Println, on its process's standard output.
	QueryID uint64
	// Backend, when set, runs every execute but go-ora's clock query, and
	// commit and rollback (see Backend); without it the peer answers
	// INSERTs only.
	Backend Backend
	// Trace, when not nil, receives a line per TNS packet (for debugging).
	Trace io.Writer
}

func (f *Facts) complete() {
	if f.User == "" {
		f.User, f.Password = "scott", "tiger"
	}
	if f.Service == "" {
		f.Service = "FREEPDB1"
	}
	if f.Charset == 0 {
		f.Charset = AL32UTF8
	}
	if f.NCharset == 0 {
		f.NCharset = AL16UTF16
	}
}

// Call is one round trip: a request the client sent and the peer's reply.
type Call struct {
	Conn int    // connection number, from 1
	Name string // connect, refused, protocol, datatypes, auth1, auth2, version, execute, commit, rollback, ping, logoff
	// Piggyback lists the piggybacked calls sent ahead of this one in the
	// same request (e.g. "close cursors"); they cost no round trip.
	Piggyback []string
	Exec      *Execute // for execute
	ORA       int      // the error code replied, 0 for success
	Broken    bool     // the client broke the call (MARKER) before a reply
}

// Peer is a listening wire peer. Its methods are safe for concurrent use.
type Peer struct {
	facts Facts
	ln    net.Listener

	mu    sync.Mutex
	calls []Call
	errs  []error
	conns int
	// temporary LOBs created and freed, over all sessions
	lobsCreated, lobsFreed int
	held                   chan string
	unserved               []string
}

// Start listens on 127.0.0.1 on a free port and serves every connection
// until Close.
func Start(f Facts) (*Peer, error) {
	f.complete()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("wirepeer: listen: %w", err)
	}
	p := &Peer{facts: f, ln: ln, held: make(chan string, 64)}
	go p.accept()
	return p, nil
}

func (p *Peer) accept() {
	for {
		nc, err := p.ln.Accept()
		if err != nil {
			return // closed
		}
		p.mu.Lock()
		p.conns++
		id := p.conns
		p.mu.Unlock()
		go func() {
			defer nc.Close()
			s := newSession(p, id, nc)
			if err := s.run(); err != nil && !errors.Is(err, errHangUp) && !errors.Is(err, errDropped) && !errors.Is(err, net.ErrClosed) {
				p.fail(fmt.Errorf("connection %d: %w", id, err))
			}
		}()
	}
}

// Held receives the SQL of each execute held by Facts.HoldOn, once the
// peer has decoded it and waits for the client's break.
func (p *Peer) Held() <-chan string { return p.held }

// Addr is the host:port the peer listens on.
func (p *Peer) Addr() string { return p.ln.Addr().String() }

// URL is a go-ora URL for the peer with the facts' user and service.
func (p *Peer) URL() string {
	return fmt.Sprintf("oracle://%s:%s@%s/%s", p.facts.User, p.facts.Password, p.Addr(), p.facts.Service)
}

// Close stops listening. Connections still open end when their clients
// hang up; Close does not wait for them.
func (p *Peer) Close() error { return p.ln.Close() }

func (p *Peer) fail(err error) {
	p.mu.Lock()
	p.errs = append(p.errs, err)
	p.mu.Unlock()
}

// Err returns what the peer could not decode or refused as malformed:
// a test fails when it is not nil.
func (p *Peer) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return errors.Join(p.errs...)
}

func (p *Peer) record(c Call) {
	p.mu.Lock()
	p.calls = append(p.calls, c)
	p.mu.Unlock()
}

// Calls returns every round trip so far, in order.
func (p *Peer) Calls() []Call {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Call(nil), p.calls...)
}

// Executes returns the decoded executes so far, in order.
func (p *Peer) Executes() []*Execute {
	var out []*Execute
	for _, c := range p.Calls() {
		if c.Exec != nil {
			out = append(out, c.Exec)
		}
	}
	return out
}

// CallNames returns the names of the calls of connection conn, one per
// round trip.
func (p *Peer) CallNames(conn int) []string {
	var out []string
	for _, c := range p.Calls() {
		if c.Conn == conn {
			out = append(out, c.Name)
		}
	}
	return out
}

// serviceOf returns the SERVICE_NAME of a connect descriptor.
func serviceOf(desc string) string {
	u := strings.ToUpper(desc)
	i := strings.Index(u, "(SERVICE_NAME=")
	if i < 0 {
		return ""
	}
	rest := desc[i+len("(SERVICE_NAME="):]
	if j := strings.IndexByte(rest, ')'); j >= 0 {
		return rest[:j]
	}
	return rest
}

func (p *Peer) countCreated() {
	p.mu.Lock()
	p.lobsCreated++
	p.mu.Unlock()
}

func (p *Peer) countFreed(n int) {
	p.mu.Lock()
	p.lobsFreed += n
	p.mu.Unlock()
}

// TempLOBs reports how many temporary LOBs clients created and freed.
func (p *Peer) TempLOBs() (created, freed int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lobsCreated, p.lobsFreed
}
