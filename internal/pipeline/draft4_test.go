package pipeline_test

import (
	"strings"
	"testing"
)

// PipelineWise and Stitch tap-postgres write every numeric column with
// draft 4's boolean exclusive bounds and no $schema (found by a hostile
// review: the run failed at the SCHEMA, exit 3). The stream loads, its
// values exact, and the bounds hold as draft 4 means them.
func TestDraft4BoundsFromTapPostgres(t *testing.T) {
	schema := `{"type":"SCHEMA","stream":"public-orders","key_properties":["id"],"schema":{"type":"object","properties":{` +
		`"id":{"type":["integer"],"minimum":-2147483648,"maximum":2147483647},` +
		`"amount":{"type":["null","number"],"exclusiveMaximum":true,"maximum":100000000000000000000000000000000000000,"multipleOf":1e-38,"exclusiveMinimum":true,"minimum":-100000000000000000000000000000000000000}}}}`
	rec := func(id, amount string) string {
		return `{"type":"RECORD","stream":"public-orders","record":{"id":` + id + `,"amount":` + amount + `}}`
	}
	eng := newEngine()
	states, err := run(t, eng, loadConfig(t, ""), input(schema,
		rec("1", "12345678901234567890.123456789012345678"),
		rec("2", "0.00000000000000000000000000000000000001"),
		rec("3", "-5"),
		state(1)))
	if err != nil || len(states) != 1 {
		t.Fatalf("err %v, states %v", err, states)
	}
	var got []string
	for _, r := range eng.Rows("DRY_RUN.PUBLIC_ORDERS") {
		got = append(got, r["ID"]+"="+r["AMOUNT"])
	}
	want := "1=12345678901234567890.123456789012345678,2=0.00000000000000000000000000000000000001,3=-5"
	if strings.Join(got, ",") != want {
		t.Errorf("rows %q, want %s", got, want)
	}

	// The exclusive maximum is exclusive: 1e38 itself is refused.
	_, err = run(t, newEngine(), loadConfig(t, ""), input(schema, rec("4", "100000000000000000000000000000000000000")))
	if err == nil || !strings.Contains(err.Error(), "exclusive maximum") {
		t.Errorf("amount at the exclusive maximum: err %v", err)
	}
}
