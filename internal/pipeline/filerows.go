package pipeline

import (
	"sort"

	"github.com/target-oracle/target-oracle/internal/singer"
)

// fileRun says that a buffer's rows from index from on came from rows
// fileLine, fileLine+1, … of BATCH file file ("" : not from a BATCH
// file), up to the next run. A buffer keeps runs only once a BATCH row
// came: a stream of RECORDs pays nothing.
type fileRun struct {
	from     int
	file     string
	fileLine int64
}

// noteFile records where the row just committed (the last) came from:
// errors found at the batch's flush then name its BATCH file and row, as
// a record's own errors do (withFile).
func (b *buffer) noteFile(m *singer.Message) {
	n := len(b.files)
	if m.File == "" && (n == 0 || b.files[n-1].file == "") {
		return
	}
	i := b.rows() - 1
	if n > 0 {
		last := b.files[n-1]
		if last.file == m.File && (m.File == "" || last.fileLine+int64(i-last.from) == m.FileLine) {
			return // the run goes on
		}
	}
	b.files = append(b.files, fileRun{from: i, file: m.File, fileLine: m.FileLine})
}

// fileOf returns the BATCH file and row of row i, "" when it came in a
// RECORD.
func (b *buffer) fileOf(i int) (string, int64) {
	k := sort.Search(len(b.files), func(k int) bool { return b.files[k].from > i }) - 1
	if k < 0 || b.files[k].file == "" {
		return "", 0
	}
	r := b.files[k]
	return r.file, r.fileLine + int64(i-r.from)
}
