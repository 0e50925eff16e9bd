package wirepeer

import (
	"encoding/binary"
	"fmt"
	"io"
)

// TNS packet types (Oracle Net), the first byte after the length words.
const (
	pktConnect = 1
	pktAccept  = 2
	pktRefuse  = 4
	pktData    = 6
	pktMarker  = 12
)

// dataFlagEOF marks the client's last DATA packet before it hangs up.
const dataFlagEOF = 0x40

// packet is one TNS packet as read from the wire.
type packet struct {
	typ   byte
	flags byte
	body  []byte // everything after the 8-byte header
}

// tnsConn reads and writes TNS packets. Before the handshake a packet's
// length is a 16-bit word; once a version ≥ 315 is accepted it is 32 bits.
type tnsConn struct {
	rw      io.ReadWriter
	trace   io.Writer // when not nil, every packet is logged
	long    bool      // 32-bit lengths
	sdu     int       // largest packet this side sends
	packets int       // packets read, for error messages
	ahead   chan readResult
}

// readResult is a packet read ahead (readAhead).
type readResult struct {
	p   packet
	err error
}

// readAhead starts reading the next packet in a goroutine, so that the
// session can watch for a break while a backend call runs; the next
// readPacket returns that packet.
func (c *tnsConn) readAhead() <-chan readResult {
	if c.ahead == nil {
		ch := make(chan readResult, 1)
		go func() {
			p, err := c.readRaw()
			ch <- readResult{p, err}
		}()
		c.ahead = ch
	}
	return c.ahead
}

func (c *tnsConn) readPacket() (packet, error) {
	if ch := c.ahead; ch != nil {
		r := <-ch
		c.ahead = nil
		return r.p, r.err
	}
	return c.readRaw()
}

func (c *tnsConn) readRaw() (packet, error) {
	var hdr [8]byte
	if _, err := io.ReadFull(c.rw, hdr[:]); err != nil {
		return packet{}, err
	}
	c.packets++
	var n int
	if c.long {
		n = int(binary.BigEndian.Uint32(hdr[:4]))
	} else {
		n = int(binary.BigEndian.Uint16(hdr[:2]))
	}
	if n < 8 {
		return packet{}, fmt.Errorf("tns packet %d: length %d is shorter than its header", c.packets, n)
	}
	body := make([]byte, n-8)
	if _, err := io.ReadFull(c.rw, body); err != nil {
		return packet{}, fmt.Errorf("tns packet %d (type %d, %d bytes): %w", c.packets, hdr[4], n, err)
	}
	if c.trace != nil {
		fmt.Fprintf(c.trace, "wirepeer: read  type %2d, %5d bytes: % x\n", hdr[4], n, body[:min(len(body), 96)])
	}
	return packet{typ: hdr[4], flags: hdr[5], body: body}, nil
}

func (c *tnsConn) writePacket(typ, flags byte, body []byte) error {
	out := make([]byte, 8, 8+len(body))
	n := 8 + len(body)
	if c.long {
		binary.BigEndian.PutUint32(out, uint32(n))
	} else {
		binary.BigEndian.PutUint16(out, uint16(n))
	}
	out[4], out[5] = typ, flags
	out = append(out, body...)
	if c.trace != nil {
		fmt.Fprintf(c.trace, "wirepeer: write type %2d, %5d bytes: % x\n", typ, n, body[:min(len(body), 96)])
	}
	_, err := c.rw.Write(out)
	return err
}

// writeData sends payload as DATA packets of at most sdu bytes each.
func (c *tnsConn) writeData(payload []byte) error {
	room := c.sdu - 10
	for {
		part := payload
		if len(part) > room {
			part = part[:room]
		}
		body := make([]byte, 2, 2+len(part)) // data flags 0
		body = append(body, part...)
		if err := c.writePacket(pktData, 0, body); err != nil {
			return err
		}
		payload = payload[len(part):]
		if len(payload) == 0 {
			return nil
		}
	}
}

// connectRequest is what the peer reads from a CONNECT packet.
type connectRequest struct {
	version   uint16
	loVersion uint16
	options   uint16
	sdu, tdu  uint32
	data      string // the connect descriptor
}

// parseConnect reads a CONNECT packet's body. The descriptor travels in
// the packet when it is short, and in a DATA packet right after it when
// it is not (then the packet only says how long it is).
func (c *tnsConn) parseConnect(p packet) (connectRequest, error) {
	b := p.body // offsets below are from the packet start, minus the header
	if len(b) < 70-8 {
		return connectRequest{}, fmt.Errorf("connect packet: %d bytes, want at least 70", len(b)+8)
	}
	at := func(off int) uint16 { return binary.BigEndian.Uint16(b[off-8:]) }
	r := connectRequest{
		version:   at(8),
		loVersion: at(10),
		options:   at(12),
		sdu:       uint32(at(14)),
		tdu:       uint32(at(16)),
	}
	if r.version >= 315 && len(b) >= 66-8 {
		r.sdu = binary.BigEndian.Uint32(b[58-8:])
		r.tdu = binary.BigEndian.Uint32(b[62-8:])
	}
	dataLen, dataOff := int(at(24)), int(at(26))
	switch {
	case dataLen == 0:
	case len(b)+8 >= dataOff+dataLen:
		r.data = string(b[dataOff-8 : dataOff-8+dataLen])
	default:
		next, err := c.readPacket()
		if err != nil {
			return r, fmt.Errorf("connect data: %w", err)
		}
		if next.typ != pktData || len(next.body) < 2 {
			return r, fmt.Errorf("connect data: got packet type %d, want DATA", next.typ)
		}
		r.data = string(next.body[2:])
	}
	return r, nil
}

const acceptLen = 45

// accept answers a CONNECT. Flags 0x04 ("native network services
// disabled") in both ACFL bytes tell the client to skip advanced
// negotiation (encryption, checksums, authentication services).
func (c *tnsConn) accept(req connectRequest, sdu uint32) error {
	version := req.version
	if version > 317 {
		version = 317
	}
	body := make([]byte, acceptLen-8) // byte 40: no compression; 41..44: flags2 (version 318+)
	put16 := func(off int, v uint16) { binary.BigEndian.PutUint16(body[off-8:], v) }
	put16(8, version)
	put16(10, req.options&^0x0400) // no out-of-band breaks
	put16(12, uint16(min(sdu, 0xFFFF)))
	put16(14, uint16(min(sdu, 0xFFFF)))
	put16(16, 0x0100)
	put16(18, 0)         // no accept data
	put16(20, acceptLen) // data offset: the end of the packet
	body[22-8], body[23-8] = 0x04, 0x04
	binary.BigEndian.PutUint32(body[32-8:], sdu)
	binary.BigEndian.PutUint32(body[36-8:], sdu)
	if err := c.writePacket(pktAccept, 0, body); err != nil {
		return err
	}
	c.long = version >= 315
	c.sdu = int(sdu)
	return nil
}

// refuse answers a CONNECT with a REFUSE carrying a listener error.
func (c *tnsConn) refuse(code int) error {
	msg := fmt.Sprintf("(DESCRIPTION=(TMP=)(VSNNUM=0)(ERR=%d)(ERROR_STACK=(ERROR=(CODE=%d)(EMFI=4))))", code, code)
	body := make([]byte, 4, 4+len(msg))
	body[0], body[1] = 1, 0 // user reason, system reason
	binary.BigEndian.PutUint16(body[2:], uint16(len(msg)))
	body = append(body, msg...)
	return c.writePacket(pktRefuse, 0, body)
}
