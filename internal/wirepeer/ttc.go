package wirepeer

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// errHangUp is returned when the client ends the session: its final DATA
// packet (flag EOF) or the connection closing between two requests.
var errHangUp = errors.New("client hung up")

// errBreak is returned when the client sends a break marker where the
// peer reads a request: the request (if any) is dropped and the break
// answered (session.afterBreak).
var errBreak = errors.New("client break")

// ttcReader reads the TTC byte stream that DATA packets carry. A request
// may span packets: when the buffered bytes run out the reader pulls the
// next packet, so a request ends where its decoding ends.
type ttcReader struct {
	c   *tnsConn
	buf []byte
	pos int
	// bigChunks: long values are sent in chunks whose lengths are
	// compressed UB4s (the server advertised "big chunk CLR"), not bytes.
	bigChunks bool
}

func (r *ttcReader) fill(n int) error {
	for len(r.buf)-r.pos < n {
		p, err := r.c.readPacket()
		if err != nil {
			if len(r.buf) == r.pos {
				return errHangUp
			}
			return err
		}
		switch p.typ {
		case pktData:
			if len(p.body) < 2 {
				return fmt.Errorf("data packet of %d bytes", len(p.body))
			}
			if binary.BigEndian.Uint16(p.body)&dataFlagEOF != 0 {
				return errHangUp
			}
			r.buf = append(r.buf[r.pos:], p.body[2:]...)
			r.pos = 0
		case pktMarker:
			if len(p.body) == 3 && (p.body[2] == markerBreak || p.body[2] == markerInterrupt) {
				return errBreak
			}
			return fmt.Errorf("marker packet % x in a request", p.body)
		default:
			return fmt.Errorf("tns packet type %d where DATA was expected", p.typ)
		}
	}
	return nil
}

// reset drops what is buffered: called between requests.
func (r *ttcReader) reset() { r.buf, r.pos = r.buf[:0], 0 }

// pending reports bytes left over after a request was decoded.
func (r *ttcReader) pending() int { return len(r.buf) - r.pos }

func (r *ttcReader) bytes(n int) ([]byte, error) {
	if err := r.fill(n); err != nil {
		return nil, err
	}
	b := r.buf[r.pos : r.pos+n]
	r.pos += n
	return b, nil
}

func (r *ttcReader) ub1() (byte, error) {
	b, err := r.bytes(1)
	if err != nil {
		return 0, err
	}
	return b[0], nil
}

// ub reads a compressed unsigned integer: a length byte, then that many
// big-endian bytes. maxBytes is the width of the field (2, 4 or 8).
func (r *ttcReader) ub(maxBytes int) (uint64, error) {
	n, err := r.ub1()
	if err != nil {
		return 0, err
	}
	if n&0x80 != 0 {
		return 0, fmt.Errorf("negative value (length byte %#x) in an unsigned field", n)
	}
	if int(n) > maxBytes {
		return 0, fmt.Errorf("compressed integer of %d bytes in a %d-byte field", n, maxBytes)
	}
	b, err := r.bytes(int(n))
	if err != nil {
		return 0, err
	}
	var v uint64
	for _, x := range b {
		v = v<<8 | uint64(x)
	}
	return v, nil
}

// sb reads a compressed signed integer (length byte with 0x80 for negative).
func (r *ttcReader) sb(maxBytes int) (int64, error) {
	n, err := r.ub1()
	if err != nil {
		return 0, err
	}
	neg := n&0x80 != 0
	n &= 0x7F
	if int(n) > maxBytes {
		return 0, fmt.Errorf("compressed integer of %d bytes in a %d-byte field", n, maxBytes)
	}
	b, err := r.bytes(int(n))
	if err != nil {
		return 0, err
	}
	var v int64
	for _, x := range b {
		v = v<<8 | int64(x)
	}
	if neg {
		v = -v
	}
	return v, nil
}

func (r *ttcReader) ub2() (int, error) { v, err := r.ub(2); return int(v), err }
func (r *ttcReader) ub4() (int, error) { v, err := r.ub(4); return int(v), err }

// fixed16LE reads a 2-byte little-endian integer (negotiation messages).
func (r *ttcReader) fixed16LE() (int, error) {
	b, err := r.bytes(2)
	if err != nil {
		return 0, err
	}
	return int(binary.LittleEndian.Uint16(b)), nil
}

func (r *ttcReader) fixed16BE() (int, error) {
	b, err := r.bytes(2)
	if err != nil {
		return 0, err
	}
	return int(binary.BigEndian.Uint16(b)), nil
}

// clr reads a byte string with its length: 0 (and 0xFD, 0xFF) is NULL,
// 1..0xFC is the length, 0xFE starts chunks ended by a zero length.
func (r *ttcReader) clr() (data []byte, null bool, err error) {
	n, err := r.ub1()
	if err != nil {
		return nil, false, err
	}
	switch n {
	case 0, 0xFD, 0xFF:
		return nil, true, nil
	case 0xFE:
		var out []byte
		for {
			var size int
			if r.bigChunks {
				size, err = r.ub4()
			} else {
				var b byte
				b, err = r.ub1()
				size = int(b)
			}
			if err != nil {
				return nil, false, err
			}
			if size == 0 {
				return out, false, nil
			}
			chunk, err := r.bytes(size)
			if err != nil {
				return nil, false, err
			}
			out = append(out, chunk...)
		}
	}
	b, err := r.bytes(int(n))
	if err != nil {
		return nil, false, err
	}
	return append([]byte(nil), b...), false, nil
}

// keyVal reads one key/value pair: each part is a UB4 length followed,
// when not zero, by the bytes; then a UB4 flag.
func (r *ttcReader) keyVal() (key, val string, flag int, err error) {
	part := func() (string, error) {
		n, err := r.ub4()
		if err != nil || n == 0 {
			return "", err
		}
		b, _, err := r.clr()
		if err != nil {
			return "", err
		}
		if len(b) > n {
			b = b[:n]
		}
		return string(b), nil
	}
	if key, err = part(); err != nil {
		return
	}
	if val, err = part(); err != nil {
		return
	}
	flag, err = r.ub4()
	return
}

// ttcWriter builds one response.
type ttcWriter struct {
	b         []byte
	bigChunks bool // chunk lengths as compressed UB4s, as for ttcReader
}

func (w *ttcWriter) ub1(v ...byte) { w.b = append(w.b, v...) }

// ub writes a compressed unsigned integer.
func (w *ttcWriter) ub(v uint64) {
	if v == 0 {
		w.b = append(w.b, 0)
		return
	}
	var tmp [8]byte
	binary.BigEndian.PutUint64(tmp[:], v)
	i := 0
	for tmp[i] == 0 {
		i++
	}
	w.b = append(w.b, byte(8-i))
	w.b = append(w.b, tmp[i:]...)
}

func (w *ttcWriter) fixed16LE(v int) { w.b = binary.LittleEndian.AppendUint16(w.b, uint16(v)) }
func (w *ttcWriter) fixed16BE(v int) { w.b = binary.BigEndian.AppendUint16(w.b, uint16(v)) }

// clr writes a byte string with its length (chunked above 0xFC bytes).
func (w *ttcWriter) clr(data []byte) {
	if len(data) == 0 {
		w.b = append(w.b, 0)
		return
	}
	if len(data) <= 0xFC {
		w.b = append(w.b, byte(len(data)))
		w.b = append(w.b, data...)
		return
	}
	w.b = append(w.b, 0xFE)
	for len(data) > 0 {
		n := min(len(data), 0xFC)
		if w.bigChunks {
			w.ub(uint64(n))
		} else {
			w.b = append(w.b, byte(n))
		}
		w.b = append(w.b, data[:n]...)
		data = data[n:]
	}
	w.b = append(w.b, 0)
}

func (w *ttcWriter) keyVal(key, val string, flag int) {
	for _, s := range []string{key, val} {
		if s == "" {
			w.b = append(w.b, 0)
			continue
		}
		w.ub(uint64(len(s)))
		w.clr([]byte(s))
	}
	w.ub(uint64(flag))
}
