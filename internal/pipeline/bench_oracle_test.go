package pipeline_test

import (
	"bytes"
	"context"
	"io"
	"reflect"
	"testing"

	"github.com/target-oracle/target-oracle/internal/bench"
	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/pipeline"
)

// BenchmarkEngines runs the benchmark stream of SPEC §10 through the
// whole CPU path twice: into the embedded engine as --dry-run does, and
// into the real Oracle engine (planning, SQL, bind building, retries'
// bookkeeping) on a session whose array executes end at the database
// seam. The catalog, DDL and commits go to the fake Oracle; the rows of
// an array execute are counted and dropped there, so the figure is the
// target's own work per record, not the fake's or go-ora's. SPEC §10: the
// Oracle engine adds at most 10 % to the dry run. Compare the two by
// cpu-ns/record (the process's user+sys CPU time: steadier than the wall
// clock on a shared machine) and -benchmem (B/op, allocs/op);
// docs/performance.md has the figures and the command.
func BenchmarkEngines(b *testing.B) {
	const n = 50000
	var in bytes.Buffer
	if err := bench.Generate(&in, n); err != nil {
		b.Fatal(err)
	}
	srv := testServer
	for _, c := range []struct {
		name   string
		engine func() engine.Engine
	}{
		{"dryrun", func() engine.Engine { return memory.New(memory.Options{}) }},
		{"oracle", func() engine.Engine {
			db := fake.New(fake.Options{Schema: "DRY_RUN"})
			return oracle.New(func(ctx context.Context) (oracle.Conn, error) {
				c, err := db.Dial(ctx)
				return sinkConn{c}, err
			}, oraclesql.New(oraclesql.Options{IdentifierMaxBytes: 128}), oracle.Options{})
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			cfg := loadConfig(b, `{}`)
			b.SetBytes(int64(in.Len()))
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := bench.CPUTime()
			for i := 0; i < b.N; i++ {
				err := pipeline.Run(context.Background(), pipeline.Options{
					Config: cfg, Engine: c.engine(), Server: srv,
					Input: bytes.NewReader(in.Bytes()), StateOut: io.Discard,
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n*b.N), "ns/record")
			b.ReportMetric(float64((bench.CPUTime()-cpu0).Nanoseconds())/float64(n*b.N), "cpu-ns/record")
		})
	}
}

// sinkConn is a session of the fake Oracle whose transactions count the
// rows of array executes instead of running them.
type sinkConn struct{ oracle.Conn }

func (c sinkConn) Begin(ctx context.Context) (oracle.Tx, error) {
	tx, err := c.Conn.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return sinkTx{tx}, nil
}

type sinkTx struct{ oracle.Tx }

func (t sinkTx) Exec(ctx context.Context, st *oraclesql.Statement, args []any) (int64, error) {
	if len(args) > 0 {
		if v := reflect.ValueOf(args[0]); v.Kind() == reflect.Slice && v.Type().Elem().Kind() != reflect.Uint8 {
			return int64(v.Len()), nil
		}
	}
	return t.Tx.Exec(ctx, st, args)
}
