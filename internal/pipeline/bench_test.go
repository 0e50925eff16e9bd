package pipeline_test

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/target-oracle/target-oracle/internal/bench"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/pipeline"
)

// BenchmarkPipeline runs the benchmark stream of SPEC §10 through the whole
// CPU path (read, validate, transform, batch, embedded engine) and reports
// records/s. Profile it with -cpuprofile.
func BenchmarkPipeline(b *testing.B) {
	const n = 50000
	var in bytes.Buffer
	if err := bench.Generate(&in, n); err != nil {
		b.Fatal(err)
	}
	for _, validate := range []bool{true, false} {
		name := "validate"
		settings := `{}`
		if !validate {
			name, settings = "novalidate", `{"validate_records": false}`
		}
		b.Run(name, func(b *testing.B) {
			cfg := loadConfig(b, settings)
			b.SetBytes(int64(in.Len()))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				err := pipeline.Run(context.Background(), pipeline.Options{
					Config: cfg, Engine: memory.New(memory.Options{}),
					Server: testServer,
					Input:  bytes.NewReader(in.Bytes()), StateOut: io.Discard,
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
		})
	}
}
