package pipeline_test

import (
	"crypto/md5"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/config"
)

const userSchema = `{"type":"SCHEMA","stream":"users","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"email":{"type":["null","string"]},"status":{"type":["null","string"]},"amount":{"type":["null","number"]}}}}`

func user(id, email, status string) string {
	return `{"type":"RECORD","stream":"users","record":{"id":` + id + `,"email":"` + email + `","status":"` + status + `","amount":12345678901234567890.123456789}}`
}

// A filter that drops records between two STATEs: states are still written
// in order as their records commit, and the last one is the final state. (A
// state may be skipped when a newer one qualifies at the same moment: only
// the newest qualifying state is written.)
func TestStreamMapFilterKeepsTheStateContract(t *testing.T) {
	cfg := loadConfig(t, `{"batch_size_rows": 1, "max_parallelism": 1, "stream_maps": {"users": {"__filter__": "status != 'deleted'"}}}`)
	eng := newEngine()
	states, err := run(t, eng, cfg, input(userSchema, user("1", "a@x.io", "ok"), state(1), user("2", "b@x.io", "deleted"), state(2),
		user("3", "c@x.io", "ok"), state(3)))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(states, "|"); got != `{"n":1}|{"n":2}|{"n":3}` && got != `{"n":2}|{"n":3}` {
		t.Fatalf("states %s", got)
	}
	if got := ids(eng, "USERS"); got != "1,3" {
		t.Fatalf("rows %s", got)
	}
	// Untouched numbers pass through exactly.
	wantValues(t, eng, "USERS", "AMOUNT", "12345678901234567890.123456789", "12345678901234567890.123456789")
}

func TestStreamMapHashesPII(t *testing.T) {
	cfg := loadConfig(t, `{"stream_maps": {"users": {"email_hash": "md5(email)", "email": null}}}`)
	eng := newEngine()
	if _, err := run(t, eng, cfg, input(userSchema, user("1", "a@x.io", "ok"))); err != nil {
		t.Fatal(err)
	}
	sum := md5.Sum([]byte("a@x.io"))
	wantValues(t, eng, "USERS", "EMAIL_HASH", hex.EncodeToString(sum[:]))
	if eng.Tables()["DRY_RUN.USERS"].Column("EMAIL") != nil {
		t.Fatal("the removed email property still has a column")
	}
}

func TestStreamMapAliasesTwoStreamsIntoOneTable(t *testing.T) {
	cfg := loadConfig(t, `{"stream_maps": {"users": {"__alias__": "people"}, "admins": {"__alias__": "people"}}}`)
	admins := strings.ReplaceAll(userSchema, `"users"`, `"admins"`)
	eng := newEngine()
	_, err := run(t, eng, cfg, input(userSchema, admins, user("1", "a@x.io", "ok"),
		strings.ReplaceAll(user("2", "b@x.io", "ok"), `"users"`, `"admins"`)))
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(eng, "PEOPLE"); got != "1,2" {
		t.Fatalf("rows of PEOPLE %s", got)
	}
	if len(eng.Tables()) != 1 {
		t.Fatalf("tables %v", keys(eng.Tables()))
	}
}

func TestStreamMapSourceSplit(t *testing.T) {
	cfg := loadConfig(t, `{"stream_maps": {"users": {"email": null}, "users_pii": {"__source__": "users", "email": "email", "__else__": null}}}`)
	eng := newEngine()
	if _, err := run(t, eng, cfg, input(userSchema, user("1", "a@x.io", "ok"), user("2", "b@x.io", "ok"))); err != nil {
		t.Fatal(err)
	}
	if ids(eng, "USERS") != "1,2" || ids(eng, "USERS_PII") != "1,2" {
		t.Fatalf("rows USERS %s USERS_PII %s", ids(eng, "USERS"), ids(eng, "USERS_PII"))
	}
	wantValues(t, eng, "USERS_PII", "EMAIL", "a@x.io", "b@x.io")
	if eng.Tables()["DRY_RUN.USERS"].Column("EMAIL") != nil || eng.Tables()["DRY_RUN.USERS_PII"].Column("STATUS") != nil {
		t.Fatal("split streams have the wrong columns")
	}
}

func TestStreamMapBadExpressionIsAConfigError(t *testing.T) {
	cfg := loadConfig(t, `{"stream_maps": {"users": {"x": "f'{email}'"}}}`)
	_, err := run(t, newEngine(), cfg, input(userSchema))
	var ce *config.Error
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "users") {
		t.Fatalf("err = %v, want a configuration error naming the stream", err)
	}
}
