package testkit

import (
	"fmt"
	"strings"
)

// Singer input that the embedded engine's and the Oracle engine's tests
// both run, so that the two engines are held to the same scenarios.

// HistorySchema is the SCHEMA of stream "dim" that the history tests load.
const HistorySchema = `{"type":"SCHEMA","stream":"dim","key_properties":["id"],"schema":{"type":"object","properties":{` +
	`"id":{"type":"integer"},"name":{"type":["null","string"]},"updated_at":{"type":["null","string"],"format":"date-time"}}}}`

// HistoryRecord is a RECORD of dim; updated is its updated_at, te its
// time_extracted and del its _sdc_deleted_at ("" for none).
func HistoryRecord(id int, name, updated, te, del string) string {
	rec := fmt.Sprintf(`"id":%d,"name":%q`, id, name)
	if updated != "" {
		rec += fmt.Sprintf(`,"updated_at":%q`, updated)
	}
	if del != "" {
		rec += fmt.Sprintf(`,"_sdc_deleted_at":%q`, del)
	}
	line := `{"type":"RECORD","stream":"dim","record":{` + rec + `}`
	if te != "" {
		line += fmt.Sprintf(`,"time_extracted":%q`, te)
	}
	return line + "}"
}

// HalfMigrationInputs are the three runs of the stale-copy scenario: the
// first loads seven rows with an integer C, then a SCHEMA makes C text (a
// rewrite migration); the second loads new values for the same keys
// under the old schema, which needs no migration; the third sends the
// text schema again.
func HalfMigrationInputs() (first, second, third string) {
	v1 := `{"type":"SCHEMA","stream":"m","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"c":{"type":["null","integer"]}}}}`
	v2 := `{"type":"SCHEMA","stream":"m","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"c":{"type":["null","string"],"maxLength":40}}}}`
	rows := func(factor int) string {
		var b strings.Builder
		for i := 1; i <= 7; i++ {
			fmt.Fprintf(&b, `{"type":"RECORD","stream":"m","record":{"id":%d,"c":%d}}`+"\n", i, i*factor)
		}
		return b.String()
	}
	return v1 + "\n" + rows(10) + v2 + "\n", v1 + "\n" + rows(100), v2 + "\n"
}
