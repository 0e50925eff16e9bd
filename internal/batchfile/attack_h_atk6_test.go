package batchfile

import (
	"fmt"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/compress/brotli"
	"github.com/parquet-go/parquet-go/compress/gzip"
	"github.com/parquet-go/parquet-go/compress/lz4"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

type pqZeros struct {
	N int64   `parquet:"n"`
	S string  `parquet:"s"`
	O *string `parquet:"o,optional"`
	D string  `parquet:"d,dict"`
}

// TestAttackParquetCompressibleValidFiles: valid, highly compressible
// Parquet files written by parquet-go, each codec, data page v1 and v2,
// large pages, must read back without refusal and with the written rows.
func TestAttackParquetCompressibleValidFiles(t *testing.T) {
	codecs := map[string]parquet.WriterOption{
		"uncompressed": parquet.Compression(&parquet.Uncompressed),
		"snappy":       parquet.Compression(&parquet.Snappy),
		"gzip":         parquet.Compression(&parquet.Gzip),
		"zstd":         parquet.Compression(&parquet.Zstd),
		"lz4raw":       parquet.Compression(&parquet.Lz4Raw),
		"brotli":       parquet.Compression(&parquet.Brotli),
	}
	const n = 200_000
	long := strings.Repeat("x", 300)
	rows := make([]pqZeros, n)
	for i := range rows {
		rows[i] = pqZeros{S: long, D: "same"}
	}
	for name, codec := range codecs {
		for _, v := range []int{1, 2} {
			path := writeParquet(t, rows, 0, codec, parquet.DataPageVersion(v), parquet.PageBufferSize(256<<20), parquet.DataPageStatistics(true))
			got, err := readBatch(t, parquetMessage("", "file://"+path), Options{})
			if err != nil {
				t.Errorf("%s v%d: valid file refused: %v", name, v, err)
				continue
			}
			if len(got) != n {
				t.Errorf("%s v%d: %d rows, want %d", name, v, len(got), n)
				continue
			}
			want := fmt.Sprintf(`"s":%q`, long)
			if !strings.Contains(got[n-1].record, want) || !strings.Contains(got[0].record, `"n":0`) {
				t.Errorf("%s v%d: row %s", name, v, got[0].record[:80])
			}
		}
	}
}

type pqInt struct {
	N int64 `parquet:"n,plain"`
}

// TestAttackParquetZerosEveryLevel: a column of zeros, plain-encoded, in
// one large page, at each codec's strongest level.
func TestAttackParquetZerosEveryLevel(t *testing.T) {
	const n = 4_000_000
	rows := make([]pqInt, n)
	for name, c := range map[string]compress.Codec{
		"gzip9":    &gzip.Codec{Level: 9},
		"gzip1":    &gzip.Codec{Level: 1},
		"zstdbest": &zstd.Codec{Level: zstd.SpeedBestCompression},
		"zstdfast": &zstd.Codec{Level: zstd.SpeedFastest},
		"lz4best":  &lz4.Codec{Level: lz4.Level9},
		"brotli11": &brotli.Codec{Quality: 11, LGWin: 24},
	} {
		path := writeParquet(t, rows, 0, parquet.Compression(c), parquet.PageBufferSize(64<<20))
		got, err := readBatch(t, parquetMessage("", "file://"+path), Options{})
		if err != nil || len(got) != n {
			t.Errorf("%s: valid file refused: %d rows, %v", name, len(got), err)
		}
	}
}
