package wirepeer

import (
	"encoding/binary"
	"fmt"
)

// LOB operation codes (function 0x60).
const (
	fnLOB          = 0x60
	lobWrite       = 0x40
	lobCreateTemp  = 0x110
	lobFreeTemp    = 0x111
	lobArrayFlag   = 0x80000 // with lobFreeTemp: free an array of locators
	msgLOBData     = 14
	locatorLen     = 40
	locatorVarWide = 0x80 // byte 6: variable-width character data, sent as AL16UTF16
	locatorTemp    = 0x01 // byte 7: a temporary LOB
)

// lob is a temporary LOB the peer holds for a session.
type lob struct {
	charset int // of its data as written
	form    int
	data    []byte
}

// lobOp is one decoded LOB operation.
type lobOp struct {
	op       int
	source   []byte // locator(s)
	charset  int    // 0 when not sent
	size     uint64
	sendSize bool
	nullO2U  bool
	scn      []int
	srcOff   uint64
	dstOff   int64
}

// readLOBOp decodes the body of a LOB operation (after function code and
// sequence number): pointers and lengths, then the locators and the
// values the pointers announce.
func (s *session) readLOBOp() (lobOp, error) {
	r := s.r
	var op lobOp
	var err error
	b := func() int {
		if err != nil {
			return 0
		}
		var v byte
		v, err = r.ub1()
		return int(v)
	}
	u := func(n int) uint64 {
		if err != nil {
			return 0
		}
		var v uint64
		v, err = r.ub(n)
		return v
	}
	hasSrc := b()
	srcLen := int(u(4))
	hasDst := b()
	dstLen := int(u(4))
	if s.ttc < 3 {
		return op, fmt.Errorf("LOB operations below TTC field version 3: not served")
	}
	b() // source offset, 32-bit form (unused from version 3)
	b() // destination offset, 32-bit form
	hasCharset := b()
	b() // size pointer, 32-bit form
	op.nullO2U = b() == 1
	if err == nil {
		var v int64
		v, err = r.sb(4)
		op.op = int(v)
	}
	hasSCN := b()
	nSCN := int(u(4))
	op.srcOff = u(8)
	if err == nil {
		op.dstOff, err = r.sb(8)
	}
	op.sendSize = b() == 1
	if s.ttc >= 4 {
		for i := 0; i < 6; i++ {
			b()
		}
	}
	if err != nil {
		return op, err
	}
	if hasSrc == 1 {
		if op.source, err = r.bytes(srcLen); err != nil {
			return op, err
		}
		op.source = append([]byte(nil), op.source...)
	}
	if hasDst == 1 {
		if _, err = r.bytes(dstLen); err != nil {
			return op, err
		}
	}
	if hasCharset == 1 {
		op.charset = int(u(2))
	}
	if hasSCN == 1 {
		for i := 0; i < nSCN; i++ {
			op.scn = append(op.scn, int(u(4)))
		}
	}
	if op.sendSize {
		op.size = u(8)
	}
	return op, err
}

// lobCall serves a LOB operation sent as a function call.
func (s *session) lobCall(c *Call, w *ttcWriter) error {
	op, err := s.readLOBOp()
	if err != nil {
		return err
	}
	switch op.op {
	case lobCreateTemp:
		c.Name = "lob create"
		// The CLOB's form travels as the source offset, its type (112
		// CLOB, 113 BLOB) as the destination offset.
		form, typ := int(op.srcOff), int(op.dstOff)
		s.lobSeq++
		loc := make([]byte, locatorLen)
		binary.BigEndian.PutUint16(loc, locatorLen-2)
		loc[4] = 0x40 // temporary
		loc[7] = locatorTemp
		cs := op.charset
		if typ == TypeCLOB && (form == 2 || s.p.facts.Charset == AL32UTF8) {
			cs = AL16UTF16 // multi-byte CLOBs and NCLOBs hold UTF-16
			if form != 2 {
				loc[6] = locatorVarWide
			}
		}
		binary.BigEndian.PutUint64(loc[10:], uint64(s.lobSeq)) // the LOB id
		s.lobs[string(loc[10:20])] = &lob{charset: cs, form: form}
		s.p.countCreated()
		w.ub1(msgParameter)
		w.b = append(w.b, loc...)
		if op.charset != 0 {
			w.ub(uint64(op.charset))
		}
		if op.sendSize {
			w.ub(0)
		}
		if op.nullO2U {
			w.ub(0)
		}
	case lobWrite:
		c.Name = "lob write"
		l, err := s.lobOf(op.source)
		if err != nil {
			return err
		}
		m, err := s.r.ub1()
		if err != nil {
			return err
		}
		if m != msgLOBData {
			return fmt.Errorf("LOB write: message %d, want LOB data (%d)", m, msgLOBData)
		}
		data, _, err := s.r.clr()
		if err != nil {
			return err
		}
		off := int(op.srcOff) - 1 // offsets count from 1, in characters
		if l.charset == AL16UTF16 {
			off *= 2
		}
		if off < 0 || off > len(l.data) {
			return fmt.Errorf("LOB write at offset %d of a LOB of %d bytes", op.srcOff, len(l.data))
		}
		l.data = append(l.data[:off], data...)
		w.ub1(msgParameter)
		w.b = append(w.b, op.source...)
		if op.charset != 0 {
			w.ub(uint64(op.charset))
		}
		if op.sendSize {
			w.ub(uint64(len(data)))
		}
		if op.nullO2U {
			w.ub(0)
		}
	case lobFreeTemp:
		c.Name = "lob free"
		before := s.freed
		if err := s.freeLOBs(op.source); err != nil {
			return err
		}
		s.p.countFreed(s.freed - before)
	default:
		return fmt.Errorf("LOB operation %#x not served", op.op)
	}
	s.summary(w, summary{})
	return nil
}

// lobOf finds the LOB of a locator.
func (s *session) lobOf(loc []byte) (*lob, error) {
	if len(loc) < 20 {
		return nil, fmt.Errorf("LOB locator of %d bytes", len(loc))
	}
	l, ok := s.lobs[string(loc[10:20])]
	if !ok {
		return nil, fmt.Errorf("LOB locator %x: no such temporary LOB (freed, or never created)", loc[10:20])
	}
	return l, nil
}

// freeLOBs frees the temporary LOBs of concatenated locators.
func (s *session) freeLOBs(locs []byte) error {
	for len(locs) > 0 {
		if len(locs) < 2 {
			return fmt.Errorf("truncated LOB locator list")
		}
		n := int(binary.BigEndian.Uint16(locs)) + 2
		if n > len(locs) {
			return fmt.Errorf("LOB locator of %d bytes in a list of %d", n, len(locs))
		}
		if _, err := s.lobOf(locs[:n]); err != nil {
			return err
		}
		delete(s.lobs, string(locs[10:20]))
		s.freed++
		locs = locs[n:]
	}
	return nil
}

// lobText returns the text of the temporary LOB a bind's locator names.
func (s *session) lobText(loc []byte) (string, error) {
	l, err := s.lobOf(loc)
	if err != nil {
		return "", err
	}
	return decodeCharset(l.charset, l.data), nil
}
