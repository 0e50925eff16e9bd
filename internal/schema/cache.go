package schema

// Cache compiles each distinct schema text once per run. A tap with
// hundreds of streams often sends the same schema for many of them, and a
// compile (the validator library's above all) costs some 300 µs: with 200
// streams a tenth of a 200,000-record run.
//
// What a cached compile shares between the streams that sent the text is
// read-only once compiled: the property tree, the validator (safe for
// concurrent use) and the fast plan. Each caller gets a Schema of its own,
// so that KeepNumberText, which a stream's layout decides, stays the
// stream's. The zero Cache is ready; it is not safe for concurrent use.
type Cache struct {
	compiled map[string]*Schema
	bytes    int
}

// The cache's bounds: its texts are kept besides the streams' own copies.
const (
	cacheEntries = 1024
	cacheBytes   = 8 << 20
)

// Compile is the package's Compile, for a text compiled before the
// compiled schema's shared parts. Errors are not cached.
func (c *Cache) Compile(raw []byte) (*Schema, error) {
	if s, ok := c.compiled[string(raw)]; ok {
		return s.share(), nil
	}
	s, err := Compile(raw)
	if err != nil {
		return nil, err
	}
	if len(c.compiled) < cacheEntries && c.bytes+len(raw) <= cacheBytes {
		if c.compiled == nil {
			c.compiled = map[string]*Schema{}
		}
		c.compiled[string(raw)] = s
		c.bytes += len(raw)
		return s.share(), nil
	}
	return s, nil
}

// share returns a Schema with s's compiled parts and no KeepNumberText:
// a copy of every field but the one each stream sets for itself.
func (s *Schema) share() *Schema {
	c := *s
	c.asText = nil
	return &c
}
