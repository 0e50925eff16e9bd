package pipeline_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/table"
)

// Schema routing by {stream_schema} (SPEC §3 default_target_schema,
// schema_mapping, stream_overrides; §5.1 collisions per schema), on the
// embedded engine: the tables each stream's rows land in.
func TestSchemaRouting(t *testing.T) {
	for _, c := range []struct {
		name, settings string
		streams        []string
		want           string
	}{
		{"no template: never split", `{}`,
			[]string{"public-orders", "sales-orders"},
			"DRY_RUN.PUBLIC_ORDERS:public-orders DRY_RUN.SALES_ORDERS:sales-orders"},
		{"literal schema conformed", `{"default_target_schema":"tap_x"}`,
			[]string{"sales-orders"},
			"TAP_X.SALES_ORDERS:sales-orders"},
		{"SDK split rule", `{"default_target_schema":"{stream_schema}"}`,
			[]string{"sales-orders", "db-sales-customers", "orders", "a-b-c-d", "public-users", "PUBLIC-items"},
			"DRY_RUN.A_B_C_D:a-b-c-d DRY_RUN.ITEMS:PUBLIC-items DRY_RUN.ORDERS:orders DRY_RUN.USERS:public-users " +
				"SALES.CUSTOMERS:db-sales-customers SALES.ORDERS:sales-orders"},
		{"schema_mapping first, public mapped", `{"default_target_schema":"{stream_schema}","schema_mapping":{"sales":"mart","public":"pub_copy"}}`,
			[]string{"sales-orders", "public-users", "crm-leads"},
			"CRM.LEADS:crm-leads MART.ORDERS:sales-orders PUB_COPY.USERS:public-users"},
		{"template text, prefix and suffix around the table part", `{"default_target_schema":"raw_{stream_schema}","table_prefix":"stg_","table_suffix":"_v"}`,
			[]string{"sales-orders", "orders"},
			"RAW_.STG_ORDERS_V:orders RAW_SALES.STG_ORDERS_V:sales-orders"},
		{"schema upper-cased even with identifier_case preserve", `{"default_target_schema":"{stream_schema}","identifier_case":"preserve"}`,
			[]string{"Sales-Orders"},
			"SALES.Orders:"}, // column "v" stays lower case, so tablesOfStreams reads no V
		{"per stream pattern in stream_overrides", `{"default_target_schema":"lit","stream_overrides":{"crm-*":{"default_target_schema":"{stream_schema}"},"public-*":{"default_target_schema":"{stream_schema}"}}}`,
			[]string{"crm-leads", "sales-orders", "public-users"},
			"CRM.LEADS:crm-leads DRY_RUN.USERS:public-users LIT.SALES_ORDERS:sales-orders"},
		{"same table name in two schemas is no collision", `{"default_target_schema":"{stream_schema}"}`,
			[]string{"sales-orders", "crm-orders"},
			"CRM.ORDERS:crm-orders SALES.ORDERS:sales-orders"},
		{"collision within one schema takes the hashed suffix", `{"default_target_schema":"{stream_schema}"}`,
			[]string{"sales-orders", "db-sales-orders"},
			"SALES.ORDERS:sales-orders SALES.ORDERS" + table.NameHash("db-sales-orders") + ":db-sales-orders"},
		{"public and the user's own schema collide", `{"default_target_schema":"{stream_schema}"}`,
			[]string{"public-orders", "orders"},
			"DRY_RUN.ORDERS:public-orders DRY_RUN.ORDERS" + table.NameHash("orders") + ":orders"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var lines []string
			for _, s := range c.streams {
				lines = append(lines, streamSchema(s))
			}
			for _, s := range c.streams {
				lines = append(lines, streamRecord(s, 1, s))
			}
			eng := newEngine()
			if _, err := run(t, eng, loadConfig(t, c.settings), input(lines...)); err != nil {
				t.Fatal(err)
			}
			if got := tablesOfStreams(eng); got != c.want {
				t.Errorf("tables\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

// A routed table's comment still records the stream name (not the table
// part), so a later run's collision decision sees the stream.
func TestRoutedTableCommentNamesTheStream(t *testing.T) {
	eng := newEngine()
	in := input(streamSchema("sales-orders"), streamRecord("sales-orders", 1, "x"))
	if _, err := run(t, eng, loadConfig(t, `{"default_target_schema":"{stream_schema}"}`), in); err != nil {
		t.Fatal(err)
	}
	tb := eng.Tables()["SALES.ORDERS"]
	if tb == nil || strings.Join(tb.Streams, ",") != "sales-orders" {
		t.Fatalf("SALES.ORDERS = %+v, want a table whose comment names sales-orders", tb)
	}
}

// A stream routed to a schema the database lacks fails at its SCHEMA
// naming the schema, as a load failure (exit 1), neither bad input nor a
// configuration error: the schema is known only from the input.
func TestRoutingToMissingSchemaFailsAtSchema(t *testing.T) {
	eng := memory.New(memory.Options{KeepRows: true, Now: func() time.Time { return fixedNow }, Schemas: []string{"DRY_RUN", "SALES"}})
	in := input(streamSchema("sales-orders"), streamRecord("sales-orders", 1, "x"), streamSchema("crm-leads"), streamRecord("crm-leads", 1, "y"))
	_, err := run(t, eng, loadConfig(t, `{"default_target_schema":"{stream_schema}"}`), in)
	if err == nil || !strings.Contains(err.Error(), `stream "crm-leads": schema CRM does not exist`) {
		t.Fatalf("err = %v, want the missing schema CRM named", err)
	}
	var ie *inputerr.Error
	var ce *config.Error
	if errors.As(err, &ie) || errors.As(err, &ce) {
		t.Errorf("err %T: want a load failure (exit 1), not input or configuration", err)
	}
	if len(eng.Tables()) > 1 || eng.Tables()["CRM.LEADS"] != nil {
		t.Errorf("tables %v: nothing may be created in CRM", tablesOfStreams(eng))
	}
}
