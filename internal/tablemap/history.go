package tablemap

import "github.com/target-oracle/target-oracle/internal/table"

// historyCands are the history columns' candidates (History tables only).
func (b *builder) historyCands() []*cand {
	if !b.opts.History {
		return nil
	}
	var out []*cand
	for _, m := range table.HistoryColumns() {
		out = append(out, &cand{source: []string{lowerASCII(m)}, path: lowerASCII(m), role: table.RoleMetadata,
			meta: m, name: m, base: m, existing: -1, typ: b.opts.HistoryType(m)})
	}
	return out
}

func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
