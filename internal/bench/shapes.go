package bench

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Shapes are the inputs beyond the benchmark stream that SPEC §10 asks to
// stay fast (docs/performance.md, "Every shape"): each is a name that
// GenerateShape writes.
//
//	bench         the benchmark stream (Generate)
//	wide          one stream, records of 200 columns (integers, strings, decimals, date-times)
//	streams:N     N streams, records interleaved round robin, ~250 bytes each
//	nested:D      one stream, records with an object nested D levels deep
//	              (load with storage_mode flattened and flattening_max_depth D)
var Shapes = []string{"bench", "wide", "streams:200", "streams:1000", "nested:3", "nested:6"}

// GenerateShape writes n records of the named shape (see Shapes), with a
// STATE every 10,000 records. The output is deterministic for a shape and n.
func GenerateShape(w io.Writer, shape string, n int) error {
	name, arg, _ := strings.Cut(shape, ":")
	num := 0
	if arg != "" {
		v, err := strconv.Atoi(arg)
		if err != nil || v < 1 {
			return fmt.Errorf("shape %q: want a positive number after ':'", shape)
		}
		num = v
	}
	switch {
	case name == "bench" && arg == "":
		return Generate(w, n)
	case name == "wide" && arg == "":
		return generateWide(w, n, 200)
	case name == "streams" && num > 0:
		return generateStreams(w, n, num)
	case name == "nested" && num > 0:
		return generateNested(w, n, num)
	}
	return fmt.Errorf("unknown shape %q (shapes: %s)", shape, strings.Join(Shapes, ", "))
}

// generateWide writes records of cols columns, cycling through four
// types: integer, string, decimal, date-time.
func generateWide(w io.Writer, n, cols int) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	rnd := rand.New(rand.NewPCG(7, 8))
	var sb strings.Builder
	sb.WriteString(`{"type": "SCHEMA", "stream": "wide", "key_properties": ["id"], "schema": {"type": "object", "properties": {"id": {"type": "integer"}`)
	for c := 1; c < cols; c++ {
		fmt.Fprintf(&sb, `, "c%03d": %s`, c, wideTypes[c%4])
	}
	sb.WriteString("}}}\n")
	bw.WriteString(sb.String())
	for i := 1; i <= n; i++ {
		fmt.Fprintf(bw, `{"type": "RECORD", "stream": "wide", "record": {"id": %d`, i)
		for c := 1; c < cols; c++ {
			fmt.Fprintf(bw, `, "c%03d": `, c)
			switch c % 4 {
			case 0:
				bw.WriteString(strconv.Itoa(rnd.IntN(1000000)))
			case 1:
				fmt.Fprintf(bw, `"%s-%d"`, words[rnd.IntN(len(words))], rnd.IntN(1000))
			case 2:
				fmt.Fprintf(bw, "%d.%02d", rnd.IntN(100000), rnd.IntN(100))
			case 3:
				fmt.Fprintf(bw, `"2024-%02d-%02dT%02d:%02d:%02dZ"`, 1+rnd.IntN(12), 1+rnd.IntN(28), rnd.IntN(24), rnd.IntN(60), rnd.IntN(60))
			}
		}
		bw.WriteString("}}\n")
		state(bw, i, "wide")
	}
	return bw.Flush()
}

var wideTypes = [4]string{
	`{"type": ["null", "integer"]}`,
	`{"type": ["null", "string"]}`,
	`{"type": ["null", "number"]}`,
	`{"type": ["null", "string"], "format": "date-time"}`,
}

// generateStreams writes streams SCHEMAs, then n records spread round
// robin over them (record i goes to stream i % streams).
func generateStreams(w io.Writer, n, streams int) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	rnd := rand.New(rand.NewPCG(7, 9))
	for s := 0; s < streams; s++ {
		fmt.Fprintf(bw, `{"type": "SCHEMA", "stream": "s%04d", "key_properties": ["id"], "schema": {"type": "object", "properties": {`+
			`"id": {"type": "integer"}, "name": {"type": ["null", "string"]}, "amount": {"type": ["null", "number"]}, `+
			`"qty": {"type": ["null", "integer"]}, "active": {"type": ["null", "boolean"]}, `+
			`"updated_at": {"type": ["null", "string"], "format": "date-time"}, "note": {"type": ["null", "string"]}}}}`+"\n", s)
	}
	for i := 1; i <= n; i++ {
		s := i % streams
		fmt.Fprintf(bw, `{"type": "RECORD", "stream": "s%04d", "record": {"id": %d, "name": "%s %s", "amount": %d.%02d, "qty": %d, `+
			`"active": %t, "updated_at": "2025-%02d-%02dT%02d:%02d:%02d+02:00", "note": "%s"}}`+"\n",
			s, i, title(words[rnd.IntN(10)]), title(words[rnd.IntN(10)]), rnd.IntN(100000), rnd.IntN(100), rnd.IntN(1000),
			rnd.IntN(2) == 0, 1+rnd.IntN(12), 1+rnd.IntN(28), rnd.IntN(24), rnd.IntN(60), rnd.IntN(60),
			strings.Repeat(words[rnd.IntN(10)]+" ", 8))
		state(bw, i, fmt.Sprintf("s%04d", s))
	}
	return bw.Flush()
}

// generateNested writes records whose "o" property nests depth levels of
// objects, each level with three scalar members.
func generateNested(w io.Writer, n, depth int) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	rnd := rand.New(rand.NewPCG(7, 10))
	var schema func(d int) string
	schema = func(d int) string {
		s := `{"type": ["null", "object"], "properties": {"a": {"type": ["null", "integer"]}, "b": {"type": ["null", "string"]}, ` +
			`"t": {"type": ["null", "string"], "format": "date-time"}`
		if d > 1 {
			s += `, "o": ` + schema(d-1)
		}
		return s + "}}"
	}
	fmt.Fprintf(bw, `{"type": "SCHEMA", "stream": "nested", "key_properties": ["id"], "schema": {"type": "object", "properties": {`+
		`"id": {"type": "integer"}, "name": {"type": ["null", "string"]}, "o": %s}}}`+"\n", schema(depth))
	for i := 1; i <= n; i++ {
		fmt.Fprintf(bw, `{"type": "RECORD", "stream": "nested", "record": {"id": %d, "name": "%s", "o": `, i, words[rnd.IntN(10)])
		for d := depth; d >= 1; d-- {
			fmt.Fprintf(bw, `{"a": %d, "b": "%s-%d", "t": "2024-%02d-%02dT%02d:%02d:%02dZ"`, rnd.IntN(100000), words[rnd.IntN(10)], d,
				1+rnd.IntN(12), 1+rnd.IntN(28), rnd.IntN(24), rnd.IntN(60), rnd.IntN(60))
			if d > 1 {
				bw.WriteString(`, "o": `)
			}
		}
		bw.WriteString(strings.Repeat("}", depth) + "}}\n")
		state(bw, i, "nested")
	}
	return bw.Flush()
}

func state(bw *bufio.Writer, i int, stream string) {
	if i%10000 == 0 {
		fmt.Fprintf(bw, `{"type": "STATE", "value": {"bookmarks": {%q: {"id": %d}}}}`+"\n", stream, i)
	}
}
