package pipeline_test

import (
	"strings"
	"testing"
)

// An input aliased into a stream name that another input carries itself
// ({"a":{"__alias__":"o"}} and a stream "o" the tap sends unmapped):
// both load table O, but Aliased counts only two aliased entries, so in
// separate runs a's ACTIVATE_VERSION takes o's rows (measured: O holds
// only 11, comment ["o"]). Not fixed: counting the output's own name as
// a sharer (streammap.Mapper.Aliased) would refuse ACTIVATE_VERSION,
// overwrite and delete_missing for every plain rename
// {"a":{"__alias__":"o"}} whose tap never sends "o"; which is wanted is
// the lead's call (a warning at SCHEMA when a stream named like an
// alias's output arrives unmapped would be a cheaper middle way).
func TestAttackAliasOntoAnUnmappedInputsName(t *testing.T) {
	t.Skip("finding: a stream map alias onto the name another input carries unmapped ({\"a\":{\"__alias__\":\"o\"}} and stream o) is not a sharer: in separate runs a's ACTIVATE_VERSION with hard_delete deletes o's rows")
	const maps = `"stream_maps":{"a":{"__alias__":"o"}}`
	eng := newEngine()
	cfg := loadConfig(t, `{`+maps+`,"hard_delete":true}`)
	if _, err := run(t, eng, cfg, atk5Sch("o")+atk5Rec("o", 1, 5)+`{"type":"STATE","value":1}`+"\n"); err != nil {
		t.Fatalf("run 1: %v", err)
	}
	states, err := run(t, eng, cfg, atk5Sch("a")+atk5Rec("a", 11, 6)+`{"type":"ACTIVATE_VERSION","stream":"a","version":6}`+"\n"+`{"type":"STATE","value":2}`+"\n")
	if err != nil {
		return // refused: o's row is kept
	}
	if live := atk5Live(eng.Rows("DRY_RUN.O")); !strings.Contains(","+live+",", ",1,") {
		t.Errorf("run 2 exit 0, STATE %v, O holds %q (comment %q): input o's row 1 is gone", states, live, eng.Tables()["DRY_RUN.O"].Streams)
	}
}
