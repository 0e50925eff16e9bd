package batchfile

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// forgedPage writes a one-column Parquet file with codec and rewrites its
// first page header with edit, moving what follows and fixing the
// footer's offsets, so that only the header is damaged.
func forgedPage(t *testing.T, codec parquet.WriterOption, edit func(*format.PageHeader)) string {
	t.Helper()
	type row struct {
		ID int64 `parquet:"id"`
	}
	rows := make([]row, 100)
	for i := range rows {
		rows[i].ID = int64(i)
	}
	data, err := os.ReadFile(writeParquet(t, rows, 0, codec))
	if err != nil {
		t.Fatal(err)
	}
	n := int64(binary.LittleEndian.Uint32(data[len(data)-8:]))
	footerAt := int64(len(data)) - 8 - n
	var md format.FileMetaData
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), data[footerAt:footerAt+n], &md); err != nil {
		t.Fatal(err)
	}
	cc := &md.RowGroups[0].Columns[0]
	at := cc.MetaData.DataPageOffset
	if cc.MetaData.DictionaryPageOffset != 0 {
		at = cc.MetaData.DictionaryPageOffset
	}
	_, _, hl, err := pageHeader(data[at:])
	if err != nil {
		t.Fatal(err)
	}
	var h format.PageHeader
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), data[at:at+int64(hl)], &h); err != nil {
		t.Fatal(err)
	}
	edit(&h)
	nh, err := thrift.Marshal(new(thrift.CompactProtocol), &h)
	if err != nil {
		t.Fatal(err)
	}
	d := int64(len(nh) - hl)
	cc.MetaData.TotalCompressedSize += d
	cc.MetaData.TotalUncompressedSize += d
	if cc.FileOffset > at {
		cc.FileOffset += d
	}
	if cc.MetaData.DictionaryPageOffset != 0 && cc.MetaData.DataPageOffset > at {
		cc.MetaData.DataPageOffset += d
	}
	footer, err := thrift.Marshal(new(thrift.CompactProtocol), &md)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.Write(data[:at])
	b.Write(nh)
	b.Write(data[at+int64(hl) : footerAt])
	b.Write(footer)
	b.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(footer))))
	b.WriteString("PAR1")
	return writeFile(t, "forged.parquet", b.Bytes())
}

// TestAttackParquetPageHeaderClaimTakesMemory: checkFooterLength and
// checkThriftLengths bound the footer, but not the page headers inside
// the data: parquet-go allocates a page's uncompressed_page_size before
// it decompresses the page (and its compressed_page_size before it reads
// it). A 1 KB gzip file whose page header claims 2^31-1 bytes
// uncompressed took 2 GB. Now the page headers of each row group are
// walked first and such a claim is refused, the file and row named.
func TestAttackParquetPageHeaderClaimTakesMemory(t *testing.T) {
	// was: t.Skip("finding: a Parquet page header claiming 2^31-1 bytes uncompressed (or compressed) is allocated by parquet-go before anything checks it")
	for _, c := range []struct {
		name  string
		codec parquet.WriterOption
		edit  func(*format.PageHeader)
		want  string
	}{
		{"uncompressed size, gzip", parquet.Compression(&parquet.Gzip), func(h *format.PageHeader) { h.UncompressedPageSize = math.MaxInt32 }, "bytes uncompressed from"},
		{"uncompressed size, zstd", parquet.Compression(&parquet.Zstd), func(h *format.PageHeader) { h.UncompressedPageSize = math.MaxInt32 }, "bytes uncompressed from"},
		{"compressed size", parquet.Compression(&parquet.Uncompressed), func(h *format.PageHeader) { h.CompressedPageSize = math.MaxInt32 }, "left in its chunk"},
	} {
		path := forgedPage(t, c.codec, c.edit)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := readBatch(t, parquetMessage("", "file://"+path), Options{})
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want a refusal (%q)", c.name, err, c.want)
		}
		if a := after.TotalAlloc - before.TotalAlloc; a > 64<<20 {
			t.Errorf("%s: reading a forged file allocated %d MB (%v)", c.name, a>>20, err)
		}
	}
	// The same files unforged read as before.
	for _, codec := range []parquet.WriterOption{parquet.Compression(&parquet.Gzip), parquet.Compression(&parquet.Zstd), parquet.Compression(&parquet.Uncompressed)} {
		path := forgedPage(t, codec, func(*format.PageHeader) {})
		if rows, err := readBatch(t, parquetMessage("", "file://"+path), Options{}); err != nil || len(rows) != 100 {
			t.Errorf("an unforged file (header re-encoded): %d rows, %v", len(rows), err)
		}
	}
}
