package pipeline

import "unsafe"

// streamCache finds a record's stream without hashing its name. The reader
// hands every message of a stream the same string (interned, or copied
// from the envelope it resumed), so the string's data pointer names the
// stream; a map lookup per record (hash the name, compare its bytes, a
// cache miss each with 200 interleaved streams) was 4.5 % of such a run.
//
// Correct by construction, whatever the reader does: an entry holds the
// name string itself, so the memory it points at stays alive and, Go
// strings being immutable, a string with the same data pointer and length
// has the same bytes. A stream, once in p.streams, is never replaced or
// removed (newStream is the only writer, for a name not yet there), so a
// hit never goes stale. A miss falls back to the map.
//
// Direct-mapped: with 256 entries, 200 interleaved streams' names shared
// an entry with another's more than half the time, and two names sharing
// one miss in turn; 4,096 entries (96 KiB, of which a run touches the
// lines of its streams only) bring that to about one stream in twenty.
type streamCache [1 << streamCacheBits]struct {
	name string
	s    *stream
}

const streamCacheBits = 12

// lookup returns the stream named name, nil when there is none.
func (c *streamCache) lookup(streams map[string]*stream, name string) *stream {
	p := uintptr(unsafe.Pointer(unsafe.StringData(name)))
	e := &c[(uint64(p)*0x9e3779b97f4a7c15)>>(64-streamCacheBits)]
	if unsafe.StringData(e.name) == unsafe.StringData(name) && len(e.name) == len(name) && e.s != nil {
		return e.s
	}
	s := streams[name]
	if s != nil && name != "" {
		e.name, e.s = name, s
	}
	return s
}
