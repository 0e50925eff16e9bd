package wirepeer

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"strings"
)

// TTC message types (the first byte of each message in a DATA stream).
const (
	msgProtocol   = 1
	msgDataTypes  = 2
	msgFunction   = 3
	msgError      = 4 // the call summary ending each reply
	msgParameter  = 8 // return parameters: key/values, version
	msgRowData    = 7
	msgPiggyback  = 17
	msgServerSide = 23
)

// TTC function codes the peer serves.
const (
	fnLogoff    = 0x09
	fnCommit    = 0x0E
	fnRollback  = 0x0F
	fnVersion   = 0x3B
	fnExecute   = 0x5E // OALL8
	fnAuthTwo   = 0x73
	fnAuthOne   = 0x76
	fnPing      = 0x93
	fnCloseCurs = 0x69 // piggybacked
)

// The server's capabilities, sent in the protocol negotiation.
const (
	ccapLogon        = 4  // O5LOGON (0x08), no padding of session keys (0x02)
	ccapFieldVersion = 7  // the TTC field version: which fields a message has
	ccapTTC1         = 15 // 0x01: summaries start with the end-of-call status
	ccapOCI1         = 16 // 0x01: then an end-to-end sequence number
	ccapUB2Types     = 27 // type representations as UB2
	ccapTTC3         = 37 // 0x20: long values in big (UB4-length) chunks
	serverFieldVer   = 12 // 19c
)

func (f *Facts) compileCaps() []byte {
	c := make([]byte, 45)
	c[0] = 6
	c[ccapLogon] = 0x08 | 0x02
	c[ccapFieldVersion] = serverFieldVer
	c[ccapTTC1] = 0x01
	c[ccapOCI1] = 0x01
	c[ccapUB2Types] = 1
	c[ccapTTC3] = 0x20
	return c
}

func (f *Facts) runtimeCaps() []byte {
	c := []byte{2, 1, 0, 0, 0, 0, 0} // [1]&1: time zones in the type negotiation
	if f.Varchar32K {
		c[6] |= 0x04
	}
	return c
}

// session is the server side of one connection.
type session struct {
	p    *Peer
	id   int
	t    *tnsConn
	r    *ttcReader
	ttc  int // the TTC field version in use: min(client, server)
	user string
	auth o5logon
	// cursors counts cursor ids handed out; closed ones are not reused.
	cursors int
	// tzInNego: the client sends, and expects, time zones in the type
	// negotiation.
	tzInNego bool
	lobs     map[string]*lob // temporary LOBs by LOB id
	// be is the backend's session (Facts.Backend), open from login.
	be BackendSession
	// open holds the rows of queries not fetched to the end, by cursor.
	open   map[int]*cursorRows
	lobSeq int
	freed  int
}

func newSession(p *Peer, id int, nc net.Conn) *session {
	t := &tnsConn{rw: nc, sdu: 2048, trace: p.facts.Trace}
	// The server advertises big-chunk CLR (ccapTTC3), so long values come
	// in chunks with UB4 lengths.
	return &session{p: p, id: id, t: t, r: &ttcReader{c: t, bigChunks: true}, ttc: serverFieldVer,
		lobs: map[string]*lob{}}
}

func (s *session) run() error {
	ok, err := s.handshake()
	if err != nil || !ok {
		return err
	}
	defer func() {
		if s.be != nil {
			s.be.Close()
		}
	}()
	for {
		s.r.reset()
		err := s.request()
		if errors.Is(err, errBreak) {
			// A break between calls (a deadline that passed as the
			// client sent): answer it, the session goes on.
			c := Call{Conn: s.id, Name: "break", Broken: true}
			err = s.afterBreak(&c, summary{ora: 1013, msg: "ORA-01013: user requested cancel of current operation\n"})
		}
		if err != nil {
			return err
		}
	}
}

// handshake answers the CONNECT packet: ACCEPT, or REFUSE for an unknown
// service. ok is false after a refusal.
func (s *session) handshake() (ok bool, err error) {
	p, err := s.t.readPacket()
	if err != nil {
		return false, fmt.Errorf("handshake: %w", err)
	}
	if p.typ != pktConnect {
		return false, fmt.Errorf("handshake: packet type %d, want CONNECT", p.typ)
	}
	req, err := s.t.parseConnect(p)
	if err != nil {
		return false, err
	}
	if svc := serviceOf(req.data); !strings.EqualFold(svc, s.p.facts.Service) {
		s.p.record(Call{Conn: s.id, Name: "refused", ORA: 12514})
		return false, s.t.refuse(12514)
	}
	if req.version < 315 {
		return false, fmt.Errorf("handshake: client TNS version %d; the peer serves 315 and later", req.version)
	}
	s.p.record(Call{Conn: s.id, Name: "connect"})
	return true, s.t.accept(req, 8192)
}

// request decodes one request and sends its reply: one round trip.
func (s *session) request() error {
	var piggy []string
	for {
		m, err := s.r.ub1()
		if err != nil {
			return err
		}
		var c Call
		var w ttcWriter
		w.bigChunks = true
		switch m {
		case msgProtocol:
			c.Name = "protocol"
			err = s.protocol(&w)
		case msgDataTypes:
			c.Name = "datatypes"
			err = s.dataTypes(&w)
		case msgPiggyback:
			name, err := s.piggyback()
			if err != nil {
				return err
			}
			piggy = append(piggy, name)
			continue
		case msgFunction:
			err = s.function(&c, &w)
		default:
			return fmt.Errorf("request %d: TTC message type %d not served", len(s.p.CallNames(s.id))+1, m)
		}
		if errors.Is(err, errAnswered) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", c.Name, err)
		}
		if n := s.r.pending(); n > 0 {
			return fmt.Errorf("%s: %d bytes left after the request was decoded", c.Name, n)
		}
		c.Conn, c.Piggyback = s.id, piggy
		if h := s.p.facts.HoldOn; h != "" && c.Exec != nil && strings.Contains(c.Exec.SQL, h) {
			return s.holdUntilBreak(&c)
		}
		s.p.record(c)
		return s.t.writeData(w.b)
	}
}

// protocol answers the protocol negotiation: the client's protocol
// versions and name; the reply has the server's banner, character sets
// and capabilities.
func (s *session) protocol(w *ttcWriter) error {
	for { // versions, ended by 0
		v, err := s.r.ub1()
		if err != nil {
			return err
		}
		if v == 0 {
			break
		}
	}
	for { // client name, NUL-terminated
		b, err := s.r.ub1()
		if err != nil {
			return err
		}
		if b == 0 {
			break
		}
	}
	f := &s.p.facts
	w.ub1(msgProtocol, 6, 0)
	w.b = append(w.b, "x86_64/Linux 2.4.xx (wirepeer)"...)
	w.ub1(0)
	w.fixed16LE(f.Charset)
	w.ub1(0)                // server flags
	w.fixed16LE(0)          // no character set elements
	fdo := make([]byte, 16) // format descriptor: only the national set is read
	fdo[9], fdo[10] = byte(f.NCharset>>8), byte(f.NCharset)
	w.fixed16BE(len(fdo))
	w.b = append(w.b, fdo...)
	cc, rc := f.compileCaps(), f.runtimeCaps()
	w.ub1(byte(len(cc)))
	w.b = append(w.b, cc...)
	w.ub1(byte(len(rc)))
	w.b = append(w.b, rc...)
	return nil
}

// dataTypes answers the data type negotiation. The client sends its
// capabilities and the representation of each type; the peer accepts
// them all (an empty list in the reply).
func (s *session) dataTypes(w *ttcWriter) error {
	r := s.r
	if _, err := r.bytes(4); err != nil { // client in/out character sets
		return err
	}
	if _, err := r.ub1(); err != nil { // flags
		return err
	}
	n, err := r.ub1()
	if err != nil {
		return err
	}
	cc, err := r.bytes(int(n))
	if err != nil {
		return err
	}
	if len(cc) <= ccapFieldVersion {
		return fmt.Errorf("client compile-time capabilities of %d bytes", len(cc))
	}
	s.ttc = min(int(cc[ccapFieldVersion]), serverFieldVer)
	ub2Types := len(cc) > ccapUB2Types && cc[ccapUB2Types] != 0
	tzVersion := len(cc) > ccapTTC3 && cc[ccapTTC3]&0x02 != 0
	n, err = r.ub1()
	if err != nil {
		return err
	}
	rc, err := r.bytes(int(n))
	if err != nil {
		return err
	}
	s.tzInNego = len(rc) > 1 && rc[1]&1 != 0
	if s.tzInNego {
		if _, err := r.bytes(11); err != nil {
			return err
		}
		if tzVersion {
			if _, err := r.bytes(4); err != nil {
				return err
			}
		}
	}
	// go-ora (like the .NET driver it follows) then sends the national
	// character set; python-oracledb and node-oracledb send neither time
	// zones nor this field. The peer reads it from clients that sent time
	// zones: a guess at the server's rule that serves both kinds.
	if s.tzInNego {
		if _, err := r.fixed16LE(); err != nil {
			return err
		}
	}
	next := func() (int, error) {
		if ub2Types {
			return r.fixed16BE()
		}
		b, err := r.ub1()
		return int(b), err
	}
	for { // type, native type[, representation, 0], ended by type 0
		t, err := next()
		if err != nil {
			return err
		}
		if t == 0 {
			break
		}
		nt, err := next()
		if err != nil {
			return err
		}
		if nt == 0 {
			continue
		}
		if _, err := next(); err != nil {
			return err
		}
		if _, err := next(); err != nil {
			return err
		}
	}
	w.ub1(msgDataTypes)
	if s.tzInNego {
		w.ub1(0x80, 0, 0, 0, 60, 60, 60, 0x80, 0, 0, 0) // database time zone +00:00
		if tzVersion {
			w.b = append(w.b, 0, 0, 0, 0x20)
		}
	}
	if ub2Types {
		w.fixed16BE(0)
	} else {
		w.ub1(0)
	}
	return nil
}

// piggyback decodes a piggybacked call (message 17): the peer knows
// "close cursors".
func (s *session) piggyback() (string, error) {
	fn, err := s.r.ub1()
	if err != nil {
		return "", err
	}
	if _, err := s.r.ub1(); err != nil { // sequence number
		return "", err
	}
	if fn == fnLOB {
		op, err := s.readLOBOp()
		if err != nil {
			return "", err
		}
		if op.op != lobFreeTemp|lobArrayFlag {
			return "", fmt.Errorf("piggybacked LOB operation %#x not served", op.op)
		}
		before := s.freed
		if err := s.freeLOBs(op.source); err != nil {
			return "", err
		}
		s.p.countFreed(s.freed - before)
		return fmt.Sprintf("free %d temporary lobs", s.freed-before), nil
	}
	if fn != fnCloseCurs {
		return "", fmt.Errorf("piggybacked function %#x not served", fn)
	}
	if _, err := s.r.ub1(); err != nil { // pointer
		return "", err
	}
	n, err := s.r.ub4()
	if err != nil {
		return "", err
	}
	for i := 0; i < n; i++ {
		id, err := s.r.ub4()
		if err != nil {
			return "", err
		}
		delete(s.open, id)
	}
	return fmt.Sprintf("close %d cursors", n), nil
}

// function decodes a function call (message 3) and writes its reply.
func (s *session) function(c *Call, w *ttcWriter) error {
	fn, err := s.r.ub1()
	if err != nil {
		return err
	}
	if _, err := s.r.ub1(); err != nil { // sequence number
		return err
	}
	switch fn {
	case fnAuthOne:
		c.Name = "auth1"
		return s.authOne(w)
	case fnAuthTwo:
		c.Name = "auth2"
		return s.authTwo(c, w)
	case fnVersion:
		c.Name = "version"
		return s.version(w)
	case fnExecute:
		c.Name = "execute"
		return s.execute(c, w)
	case fnLOB:
		return s.lobCall(c, w)
	case fnFetch:
		c.Name = "fetch"
		return s.fetch(c, w)
	case fnCommit:
		c.Name = "commit"
		if s.be != nil {
			if err := s.be.Commit(context.Background()); err != nil {
				return s.backendError(w, c, "COMMIT", err)
			}
		}
	case fnRollback:
		c.Name = "rollback"
		if s.be != nil {
			if err := s.be.Rollback(context.Background()); err != nil {
				return s.backendError(w, c, "ROLLBACK", err)
			}
		}
	case fnPing:
		c.Name = "ping"
	case fnLogoff:
		c.Name = "logoff"
		// The backend session ends before the reply, so that it is
		// closed when the client's Close returns.
		if s.be != nil {
			s.be.Close()
			s.be = nil
		}
	default:
		return fmt.Errorf("TTC function %#x not served", fn)
	}
	s.summary(w, summary{})
	return nil
}

// version answers the version call: the banner and the version number.
func (s *session) version(w *ttcWriter) error {
	r := s.r
	if _, err := r.ub1(); err != nil { // pointer to the banner buffer
		return err
	}
	if _, err := r.ub2(); err != nil { // its size
		return err
	}
	if _, err := r.bytes(2); err != nil { // pointers: banner length, version number
		return err
	}
	if s.ttc >= 11 {
		if _, err := r.ub4(); err != nil { // ask for the full version
			return err
		}
	}
	banner := "Oracle Database 19c Enterprise Edition Release 19.0.0.0.0 - Production (wirepeer)"
	w.ub1(msgParameter)
	w.ub(uint64(len(banner)))
	w.clr([]byte(banner))
	w.ub(19<<24 | 3<<20) // 19.3.0.0.0
	s.summary(w, summary{})
	return nil
}

// summary is the end of a reply: rows processed, cursor, error.
type summary struct {
	rows   int
	cursor int
	ora    int
	msg    string
	batch  []rowError // batch errors, with ora 24381
}

// rowError is one failed row of a batch-error execute.
type rowError struct {
	ora, row int
	msg      string
}

// summary writes message 4, the call's outcome, in the layout of TTC
// field version s.ttc with end-of-call status and sequence number.
func (s *session) summary(w *ttcWriter, sm summary) {
	w.ub1(msgError)
	w.ub(0) // end-of-call status
	w.ub(0) // end-to-end sequence number
	w.ub(uint64(sm.rows))
	w.ub(uint64(sm.ora))
	w.ub(0) // array element with error
	w.ub(0) // its error number
	w.ub(uint64(sm.cursor))
	w.ub(0)  // error position
	w.ub1(0) // SQL type
	w.ub1(0) // fatal
	w.ub(0)  // flags
	w.ub(0)  // user cursor options
	w.ub1(0) // UPI parameter
	w.ub1(0) // warning flag
	w.ub(0)  // rowid: rba
	w.ub(0)  // partition
	w.ub1(0) // table
	w.ub(0)  // block
	w.ub(0)  // slot
	w.ub(0)  // OS error
	w.ub1(0) // statement number
	w.ub1(0) // call number
	w.ub(0)  // padding
	w.ub(0)  // successful iterations
	w.ub(0)  // error detail bytes
	if s.ttc >= 7 {
		// Batch errors: codes, row offsets and messages, each an array
		// in the long form (0xFE, a chunk per element, a zero end).
		arr := func(each func(e rowError)) {
			w.ub(uint64(len(sm.batch)))
			if len(sm.batch) == 0 {
				return
			}
			w.ub1(0xFE)
			for _, e := range sm.batch {
				w.ub(1) // chunk length
				each(e)
			}
			w.ub1(0)
		}
		arr(func(e rowError) { w.ub(uint64(e.ora)) })
		arr(func(e rowError) { w.ub(uint64(e.row)) })
		w.ub(uint64(len(sm.batch)))
		if len(sm.batch) > 0 {
			w.ub1(1) // packed size
			for _, e := range sm.batch {
				w.ub(uint64(len(e.msg))) // chunk length
				w.clr([]byte(e.msg))
				w.ub1(0, 0) // end of element
			}
		}
		w.ub(uint64(sm.ora))
		w.ub(uint64(sm.rows))
	}
	if sm.ora != 0 {
		w.clr([]byte(sm.msg))
	}
}

func (s *session) fail(w *ttcWriter, c *Call, ora int, msg string) {
	c.ORA = ora
	s.summary(w, summary{ora: ora, msg: fmt.Sprintf("ORA-%05d: %s\n", ora, msg)})
}

// TNS marker types (the third byte of a MARKER packet's body).
const (
	markerBreak     = 1
	markerReset     = 2
	markerInterrupt = 3
)

// holdUntilBreak leaves a decoded call unanswered until the client sends
// a break, then runs the reset exchange and fails the call: the peer
// sends break, the client answers reset, the peer sends reset and the
// error ORA-01013.
func (s *session) holdUntilBreak(c *Call) error {
	s.p.held <- c.Exec.SQL
	expect := func(types ...byte) error {
		p, err := s.t.readPacket()
		if err != nil {
			return err
		}
		if p.typ != pktMarker || len(p.body) != 3 {
			return fmt.Errorf("held call: packet type %d (%d bytes), want a MARKER", p.typ, len(p.body))
		}
		for _, t := range types {
			if p.body[2] == t {
				return nil
			}
		}
		return fmt.Errorf("held call: marker type %d, want %v", p.body[2], types)
	}
	if err := expect(markerBreak, markerInterrupt); err != nil {
		return err
	}
	return s.afterBreak(c, summary{ora: 1013, msg: "ORA-01013: user requested cancel of current operation\n"})
}

// afterBreak answers a break marker the client sent: the peer sends
// break, the client answers reset, the peer sends reset and the call's
// reply sm (ORA-01013 for a cancelled call).
func (s *session) afterBreak(c *Call, sm summary) error {
	if err := s.t.writePacket(pktMarker, 0, []byte{1, 0, markerBreak}); err != nil {
		return err
	}
	for {
		p, err := s.t.readPacket()
		if err != nil {
			return err
		}
		if p.typ == pktData {
			// go-ora sends its break from another goroutine, so a break
			// that came after the reply crosses the client's next
			// request on the wire: a server drops data until the reset.
			if len(p.body) >= 2 && binary.BigEndian.Uint16(p.body)&dataFlagEOF != 0 {
				return errHangUp
			}
			continue
		}
		if p.typ != pktMarker || len(p.body) != 3 {
			return fmt.Errorf("after a break: packet type %d (%d bytes), want a MARKER", p.typ, len(p.body))
		}
		if p.body[2] == markerReset {
			break
		}
		// further breaks of the same cancel are absorbed
	}
	if err := s.t.writePacket(pktMarker, 0, []byte{1, 0, markerReset}); err != nil {
		return err
	}
	var w ttcWriter
	w.bigChunks = true
	c.Broken, c.ORA = true, sm.ora
	s.summary(&w, sm)
	s.p.record(*c)
	return s.t.writeData(w.b)
}
