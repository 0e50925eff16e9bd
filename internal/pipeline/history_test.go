package pipeline_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/pipeline"
	"github.com/target-oracle/target-oracle/internal/table"
)

const histSchema = `{"type":"SCHEMA","stream":"dim","key_properties":["id"],"schema":{"type":"object","properties":{` +
	`"id":{"type":"integer"},"name":{"type":["null","string"]},"updated_at":{"type":["null","string"],"format":"date-time"}}}}`

// histRec is a RECORD of dim; te is its time_extracted ("" for none), del
// its _sdc_deleted_at ("" for none).
func histRec(id int, name, updated, te, del string) string {
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

// histHash is the row hash written independently of the pipeline's code:
// SHA-256 over each non-NULL record column's name and value, in name
// order, each length first (one byte, as uvarint, for these short texts).
func histHash(cols ...string) string {
	h := sha256.New()
	for i := 0; i < len(cols); i += 2 {
		for _, s := range cols[i : i+2] {
			h.Write([]byte{byte(len(s))})
			h.Write([]byte(s))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// version is one expected row of DRY_RUN.DIM (add_record_metadata false).
func version(id, name, from, to string) map[string]string {
	r := map[string]string{"ID": id, "NAME": name, "_SDC_VALID_FROM": from, "_SDC_IS_CURRENT": "1",
		"_SDC_ROW_HASH": histHash("ID", id, "NAME", name)}
	if to != "" {
		r["_SDC_VALID_TO"], r["_SDC_IS_CURRENT"] = to, "0"
	}
	return r
}

// versionU is version for a record that also has updated_at (canonical
// UTC): its hash covers UPDATED_AT too.
func versionU(id, name, updated, from, to string) map[string]string {
	r := version(id, name, from, to)
	r["_SDC_ROW_HASH"] = histHash("ID", id, "NAME", name, "UPDATED_AT", updated)
	return r
}

// versions returns the rows of DRY_RUN.DIM without the columns the
// scenario does not look at.
func versions(eng *memory.Engine, drop ...string) []map[string]string {
	var out []map[string]string
	for _, r := range eng.Rows("DRY_RUN.DIM") {
		c := make(map[string]string, len(r))
		for k, v := range r {
			c[k] = v
		}
		for _, d := range append(drop, "UPDATED_AT", "_SDC_DELETED_AT", "_SDC_TABLE_VERSION") {
			delete(c, d)
		}
		out = append(out, c)
	}
	return out
}

const (
	t1 = "2025-01-01T00:00:00Z"
	t2 = "2025-01-02T00:00:00Z"
	t3 = "2025-01-03T00:00:00Z"
)

// TestHistoryVersions holds the exact table contents of each history rule
// (docs/guarantees.md), on the embedded engine, with every batch size
// from one record per batch to all records in one.
func TestHistoryVersions(t *testing.T) {
	const base = `"load_method":"history","add_record_metadata":false`
	now := "2025-06-01T12:00:00Z" // fixedNow: the batch time
	cases := []struct {
		name     string
		settings string
		lines    []string
		want     []map[string]string
	}{
		{"a change closes the current version and adds one", ``,
			[]string{histRec(1, "a", "", t1, ""), histRec(1, "b", "", t2, ""), histRec(2, "x", "", t1, "")},
			[]map[string]string{version("1", "a", t1, t2), version("1", "b", t2, ""), version("2", "x", t1, "")}},
		{"a repeat without change adds nothing", ``,
			[]string{histRec(1, "a", "", t1, ""), histRec(1, "a", "", t2, ""), histRec(1, "a", "", t3, "")},
			[]map[string]string{version("1", "a", t1, "")}},
		{"a key three times becomes three versions", ``,
			[]string{histRec(1, "a", "", t1, ""), histRec(1, "b", "", t2, ""), histRec(1, "a", "", t3, "")},
			[]map[string]string{version("1", "a", t1, t2), version("1", "b", t2, t3), version("1", "a", t3, "")}},
		{"a valid-from not after the latest one moves by 1 µs", ``,
			[]string{histRec(1, "a", "", t2, ""), histRec(1, "b", "", t2, ""), histRec(1, "c", "", t1, "")},
			[]map[string]string{version("1", "a", t2, "2025-01-02T00:00:00.000001Z"),
				version("1", "b", "2025-01-02T00:00:00.000001Z", "2025-01-02T00:00:00.000002Z"),
				version("1", "c", "2025-01-02T00:00:00.000002Z", "")}},
		{"without time_extracted the batch time is the valid-from", ``,
			[]string{histRec(1, "a", "", "", "")},
			[]map[string]string{version("1", "a", now, "")}},
		{"a delete closes the current version and adds none; a later record opens one", ``,
			[]string{histRec(1, "a", "", t1, ""), histRec(1, "a", "", t2, t2), histRec(2, "x", "", t2, t2), histRec(1, "a", "", t3, "")},
			[]map[string]string{version("1", "a", t1, t2), version("1", "a", t3, "")}},
		{"after a delete the next version starts later, whatever the batches", ``,
			[]string{histRec(1, "a", "", t1, ""), histRec(1, "a", "", t1, t1), histRec(1, "a", "", t1, "")},
			[]map[string]string{version("1", "a", t1, "2025-01-01T00:00:00.000001Z"), version("1", "a", "2025-01-01T00:00:00.000002Z", "")}},
		{"hard_delete closes too", `,"hard_delete":true`,
			[]string{histRec(1, "a", "", t1, ""), histRec(1, "a", "", t2, t2)},
			[]map[string]string{version("1", "a", t1, t2)}},
		{"history_valid_from: the property is the valid-from", `,"history_valid_from":"updated_at"`,
			[]string{histRec(1, "a", "2024-05-05T10:00:00+02:00", t3, ""), histRec(1, "b", "", t3, "")},
			[]map[string]string{versionU("1", "a", "2024-05-05T08:00:00Z", "2024-05-05T08:00:00Z", t3), version("1", "b", t3, "")}},
		{"history_valid_from: a delete at the current valid-from closes it, one before it does nothing", `,"history_valid_from":"updated_at"`,
			[]string{histRec(1, "a", t2, "", ""), histRec(1, "a", t1, "", t1), histRec(1, "a", t2, "", t2)},
			[]map[string]string{versionU("1", "a", t2, t2, "2025-01-02T00:00:00.000001Z")}},
		{"history_valid_from: same key and valid-from is a no-op", `,"history_valid_from":"updated_at"`,
			[]string{histRec(1, "a", t1, "", ""), histRec(1, "b", t1, "", ""), histRec(1, "c", t2, "", "")},
			[]map[string]string{versionU("1", "a", t1, t1, t2), versionU("1", "c", t2, t2, "")}},
	}
	for _, tc := range cases {
		for _, batch := range []int{1, 2, 1000} {
			t.Run(fmt.Sprintf("%s/batch %d", tc.name, batch), func(t *testing.T) {
				eng := newEngine()
				cfg := loadConfig(t, fmt.Sprintf(`{%s,"batch_size_rows":%d%s}`, base, batch, tc.settings))
				if _, err := run(t, eng, cfg, input(append([]string{histSchema}, tc.lines...)...)); err != nil {
					t.Fatal(err)
				}
				if got := versions(eng); !reflect.DeepEqual(got, tc.want) {
					t.Errorf("rows:\n got %v\nwant %v", got, tc.want)
				}
			})
		}
	}
}

// TestHistoryTableShape: the four history columns whatever
// add_record_metadata says, the primary key the key plus _SDC_VALID_FROM.
func TestHistoryTableShape(t *testing.T) {
	eng := newEngine()
	if _, err := run(t, eng, loadConfig(t, `{"load_method":"history","add_record_metadata":false}`), input(histSchema, histRec(1, "a", "", t1, ""))); err != nil {
		t.Fatal(err)
	}
	tb := eng.Tables()["DRY_RUN.DIM"]
	var cols []string
	for _, c := range tb.Columns {
		cols = append(cols, fmt.Sprintf("%s %s null=%v", c.Name, c.Type, c.Nullable))
	}
	want := []string{"ID NUMBER(38,0) null=false", "NAME VARCHAR2(4000 BYTE) null=true", "UPDATED_AT TIMESTAMP(6) WITH TIME ZONE null=true",
		"_SDC_VALID_FROM TIMESTAMP(9) null=false", "_SDC_VALID_TO TIMESTAMP(9) null=true",
		"_SDC_IS_CURRENT NUMBER(1) null=true", "_SDC_ROW_HASH VARCHAR2(64 BYTE) null=true"}
	if !reflect.DeepEqual(cols, want) {
		t.Errorf("columns:\n got %q\nwant %q", cols, want)
	}
	if pk := strings.Join(tb.PrimaryKey, ","); pk != "ID,_SDC_VALID_FROM" {
		t.Errorf("primary key %s", pk)
	}
}

// TestHistoryReplays: re-running the same input never changes the current
// version's values nor adds a version equal to the one before it, but
// repeats the intermediate changes (at-least-once); with
// history_valid_from it changes nothing at all.
func TestHistoryReplays(t *testing.T) {
	lines := []string{histSchema, histRec(1, "a", t1, t1, ""), histRec(1, "b", t2, t2, ""), histRec(1, "c", t3, t3, ""),
		histRec(2, "x", t1, t1, ""), `{"type":"STATE","value":{"done":1}}`}
	us := func(n int) string { return fmt.Sprintf("2025-01-03T00:00:00.%06dZ", n) }
	for _, tc := range []struct {
		name, settings string
		want           []map[string]string
	}{
		{"time_extracted", ``, []map[string]string{
			versionU("1", "a", t1, t1, t2), versionU("1", "b", t2, t2, t3), versionU("1", "c", t3, t3, us(1)),
			versionU("1", "a", t1, us(1), us(2)), versionU("1", "b", t2, us(2), us(3)), versionU("1", "c", t3, us(3), ""),
			versionU("2", "x", t1, t1, "")}},
		{"history_valid_from", `,"history_valid_from":"updated_at"`, []map[string]string{
			versionU("1", "a", t1, t1, t2), versionU("1", "b", t2, t2, t3), versionU("1", "c", t3, t3, ""), versionU("2", "x", t1, t1, "")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eng := newEngine()
			cfg := loadConfig(t, `{"load_method":"history","add_record_metadata":false`+tc.settings+`}`)
			for i := 0; i < 2; i++ {
				if _, err := run(t, eng, cfg, input(lines...)); err != nil {
					t.Fatal(err)
				}
			}
			if got := versions(eng); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("rows after the replay:\n got %v\nwant %v", got, tc.want)
			}
		})
	}
}

// TestHistoryActivateVersion: ACTIVATE_VERSION closes the current
// versions of older table versions at the activation time and deletes
// nothing, also with hard_delete.
func TestHistoryActivateVersion(t *testing.T) {
	now := "2025-06-01T12:00:00Z"
	withVersion := func(line string, v int) string {
		return strings.TrimSuffix(line, "}") + fmt.Sprintf(`,"version":%d}`, v)
	}
	lines := []string{histSchema,
		withVersion(histRec(1, "a", "", t1, ""), 1), withVersion(histRec(2, "x", "", t1, ""), 1),
		withVersion(histRec(1, "b", "", t2, ""), 2),
		`{"type":"ACTIVATE_VERSION","stream":"dim","version":2}`}
	for _, settings := range []string{``, `,"hard_delete":true`} {
		t.Run("settings"+settings, func(t *testing.T) {
			eng := newEngine()
			if _, err := run(t, eng, loadConfig(t, `{"load_method":"history","add_record_metadata":false`+settings+`}`), input(lines...)); err != nil {
				t.Fatal(err)
			}
			want := []map[string]string{version("1", "a", t1, t2), version("1", "b", t2, ""), version("2", "x", t1, now)}
			if got := versions(eng); !reflect.DeepEqual(got, want) {
				t.Errorf("rows:\n got %v\nwant %v", got, want)
			}
		})
	}
}

// TestHistoryConfigurationErrors: a keyless history stream and a
// history_valid_from that names no date-time column fail at the SCHEMA as
// configuration errors (exit 2).
func TestHistoryConfigurationErrors(t *testing.T) {
	keyless := strings.Replace(histSchema, `"key_properties":["id"]`, `"key_properties":[]`, 1)
	for _, tc := range []struct{ name, settings, schema, want string }{
		{"keyless", `{"load_method":"history"}`, keyless, `stream "dim": load_method history needs key_properties`},
		{"delete_missing hard", `{"load_method":"history","delete_missing":"hard"}`, histSchema, `stream "dim": delete_missing hard conflicts with load_method history`},
		{"delete_missing hard for the stream", `{"load_method":"history","stream_overrides":{"dim":{"delete_missing":"hard"}}}`, histSchema, `stream "dim": delete_missing hard conflicts with load_method history`},
		{"not a date-time", `{"load_method":"history","history_valid_from":"name"}`, histSchema, `history_valid_from "name" is column "NAME" of type VARCHAR2(4000 BYTE), not a date-time`},
		{"not a column", `{"load_method":"history","history_valid_from":"nope"}`, histSchema, `history_valid_from "nope" is not a column of table DRY_RUN.DIM`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := run(t, newEngine(), loadConfig(t, tc.settings), input(tc.schema, histRec(1, "a", "", t1, "")))
			var ce *config.Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v (%T), want a *config.Error", err, err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
		})
	}
}

// TestHistoryExistingTables: a table an earlier history run made is
// adopted (its versions continue); a table another method made fails at
// the SCHEMA (exit 3) with the manual procedure.
func TestHistoryExistingTables(t *testing.T) {
	hist := loadConfig(t, `{"load_method":"history","add_record_metadata":false}`)
	eng := newEngine()
	if _, err := run(t, eng, hist, input(histSchema, histRec(1, "a", "", t1, ""))); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, eng, hist, input(histSchema, histRec(1, "b", "", t2, ""))); err != nil {
		t.Fatalf("second history run: %v", err)
	}
	want := []map[string]string{version("1", "a", t1, t2), version("1", "b", t2, "")}
	if got := versions(eng); !reflect.DeepEqual(got, want) {
		t.Errorf("rows:\n got %v\nwant %v", got, want)
	}

	eng = newEngine()
	if _, err := run(t, eng, loadConfig(t, `{"add_record_metadata":false}`), input(histSchema, histRec(1, "a", "", t1, ""))); err != nil {
		t.Fatal(err)
	}
	_, err := run(t, eng, hist, input(histSchema, histRec(1, "b", "", t2, "")))
	var ie *inputerr.Error
	if !errors.As(err, &ie) || ie.Line != 1 || ie.Stream != "dim" {
		t.Fatalf("error %v (%T), want an input error at the SCHEMA's line 1", err, err)
	}
	for _, part := range []string{"table DRY_RUN.DIM is not one",
		`ALTER TABLE "DRY_RUN"."DIM" ADD ("_SDC_VALID_FROM" TIMESTAMP(9), "_SDC_VALID_TO" TIMESTAMP(9), "_SDC_IS_CURRENT" NUMBER(1), "_SDC_ROW_HASH" VARCHAR2(64 BYTE));`,
		`ALTER TABLE "DRY_RUN"."DIM" DROP PRIMARY KEY; ALTER TABLE "DRY_RUN"."DIM" ADD PRIMARY KEY ("ID", "_SDC_VALID_FROM");`} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error %q does not contain %q", err, part)
		}
	}
	if got := eng.Rows("DRY_RUN.DIM"); len(got) != 1 || got[0]["NAME"] != "a" {
		t.Errorf("the refused table changed: %v", got)
	}
}

// TestHistoryFullSyncKeepsUnchangedRows: a full-table sync re-sends
// unchanged rows under a new table version; they add no version, their
// current version takes the new table version, and the ACTIVATE_VERSION
// that ends the sync closes only the rows the sync did not send.
func TestHistoryFullSyncKeepsUnchangedRows(t *testing.T) {
	now := "2025-06-01T12:00:00Z"
	withVersion := func(line string, v int) string {
		return strings.TrimSuffix(line, "}") + fmt.Sprintf(`,"version":%d}`, v)
	}
	lines := []string{histSchema,
		withVersion(histRec(1, "a", "", t1, ""), 1), withVersion(histRec(2, "x", "", t1, ""), 1), withVersion(histRec(3, "gone", "", t1, ""), 1),
		`{"type":"ACTIVATE_VERSION","stream":"dim","version":1}`,
		withVersion(histRec(1, "a", "", t2, ""), 2), withVersion(histRec(2, "y", "", t2, ""), 2),
		`{"type":"ACTIVATE_VERSION","stream":"dim","version":2}`}
	for _, batch := range []int{1, 1000} {
		t.Run(fmt.Sprint("batch ", batch), func(t *testing.T) {
			eng := newEngine()
			cfg := loadConfig(t, fmt.Sprintf(`{"load_method":"history","add_record_metadata":false,"batch_size_rows":%d}`, batch))
			if _, err := run(t, eng, cfg, input(lines...)); err != nil {
				t.Fatal(err)
			}
			want := []map[string]string{version("1", "a", t1, ""), version("2", "x", t1, t2), version("2", "y", t2, ""), version("3", "gone", t1, now)}
			if got := versions(eng); !reflect.DeepEqual(got, want) {
				t.Errorf("rows:\n got %v\nwant %v", got, want)
			}
			var tv []string
			for _, r := range eng.Rows("DRY_RUN.DIM") {
				tv = append(tv, r["_SDC_TABLE_VERSION"])
			}
			if want := []string{"2", "1", "2", "1"}; !reflect.DeepEqual(tv, want) {
				t.Errorf("_SDC_TABLE_VERSION by row = %v, want %v", tv, want)
			}
		})
	}
}

// --plan shows a history load: the table with its history columns and
// primary key, the read of the batch's versions, the closing UPDATE and
// the INSERT (statements.sql shows the same).
func TestHistoryPlan(t *testing.T) {
	eng := memory.New(memory.Options{Catalog: func(context.Context, string, string) (*table.Table, error) { return nil, nil },
		Render: oraclesql.New(oraclesql.Options{}), Now: func() time.Time { return fixedNow }})
	cfg := loadConfig(t, `{"load_method":"history","add_record_metadata":false}`)
	if _, err := run(t, eng, cfg, input(histSchema, histRec(1, "a", "", t1, ""), histRec(1, "b", "", t2, ""))); err != nil {
		t.Fatal(err)
	}
	sql := strings.Join(eng.Statements(), "\n/\n")
	for _, want := range []string{
		`CONSTRAINT "DIM_PK" PRIMARY KEY ("ID", "_SDC_VALID_FROM")`,
		`"_SDC_VALID_FROM" TIMESTAMP(9) NOT NULL`,
		`FROM "DRY_RUN"."DIM" WHERE "ID" IN (TO_NUMBER(:1)) FOR UPDATE`,
		`UPDATE "DRY_RUN"."DIM" SET "_SDC_VALID_TO" = TO_TIMESTAMP(:1, 'YYYY-MM-DD"T"HH24:MI:SS.FF9'), "_SDC_IS_CURRENT" = TO_NUMBER(:2) WHERE "ID" = TO_NUMBER(:3) AND "_SDC_VALID_FROM" = `,
		`INSERT INTO "DRY_RUN"."DIM" ("ID", "NAME", "UPDATED_AT", "_SDC_VALID_FROM", "_SDC_VALID_TO", "_SDC_IS_CURRENT", "_SDC_ROW_HASH") VALUES (`,
	} {
		if !strings.Contains(sql, want) {
			t.Errorf("plan lacks %s:\n%s", want, sql)
		}
	}
}

// The +1 µs rule is logged once per stream, however many batches need it.
func TestHistoryAdjustmentIsLoggedOnce(t *testing.T) {
	var logs strings.Builder
	var out strings.Builder
	o := runOptions(loadConfig(t, `{"load_method":"history","add_record_metadata":false,"batch_size_rows":1}`), newEngine(),
		input(histSchema, histRec(1, "a", "", t1, ""), histRec(1, "b", "", t1, ""), histRec(1, "c", "", t1, "")), &out)
	o.Log = slog.New(slog.NewTextHandler(&logs, nil))
	err := pipeline.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(logs.String(), "and became that + 1 µs (logged once per stream)"); n != 1 {
		t.Errorf("the adjustment is logged %d times, want once:\n%s", n, logs.String())
	}
	if !strings.Contains(logs.String(), "stream=dim table=DRY_RUN.DIM") {
		t.Errorf("the log line does not name the stream and table:\n%s", logs.String())
	}
}
