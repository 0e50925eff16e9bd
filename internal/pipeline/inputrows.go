package pipeline

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/target-oracle/target-oracle/internal/engine"
)

// inputRun says that a buffer's rows from index from on came from records
// of input stream input, mapped by stream_maps into the buffer's stream
// ("": the stream's own records, or not mapped), up to the next run. A
// buffer keeps runs only once a row came from another input stream than
// the stream itself (__alias__): a stream without stream maps, or mapped
// under its own name, pays nothing. Errors found when the batch is
// flushed then name the input stream of the row at fault, with the
// output beside it, as a record's own errors do (namedInput).
type inputRun struct {
	from  int
	input string
}

// noteInput records the input stream of the row just committed (the
// last); input is "" for the stream's own records.
func (b *buffer) noteInput(input string) {
	n := len(b.inputs)
	if n == 0 && input == "" || n > 0 && b.inputs[n-1].input == input {
		return // none yet, or the run goes on
	}
	b.inputs = append(b.inputs, inputRun{from: b.rows() - 1, input: input})
}

// inputOf returns the input stream of row i, "" when it is the buffer's
// stream itself.
func (b *buffer) inputOf(i int) string {
	k := sort.Search(len(b.inputs), func(k int) bool { return b.inputs[k].from > i }) - 1
	if k < 0 {
		return ""
	}
	return b.inputs[k].input
}

// onlyInput returns the input stream every row of the buffer came from,
// "" when that is the stream itself or the rows came from more than one.
func (b *buffer) onlyInput() string {
	if len(b.inputs) != 1 || b.inputs[0].from != 0 {
		return ""
	}
	return b.inputs[0].input
}

// streamText names a job's stream as its errors do: `stream "s0"`, or
// for rows of an input stream mapped into it `stream "s2" (output "s0")`.
func streamText(name, input string) string {
	if input == "" || input == name {
		return fmt.Sprintf("stream %q", name)
	}
	return fmt.Sprintf("stream %q (output %q)", input, name)
}

// rowInput returns the input stream of j's row i, or of its SCHEMA for a
// SCHEMA's check ("" for the stream itself, an unknown row, or a job
// without rows).
func rowInput(j *job, i int) string {
	if j.kind == jobEnsure {
		return j.schemaInput
	}
	if j.buf == nil || i < 0 {
		return ""
	}
	return j.buf.inputOf(i)
}

// refusedInputs names the input stream(s) of a batch the database
// refused, for a batch with rows of input streams mapped into j's stream
// (__alias__): the refused row's when the engine's error gives its line
// (engine.ErrorLine), `stream "s2" (output "s0")`; else every input
// stream of the batch, `streams "s1", "s2" (output "s0")` (the stream's
// own records as "s0"). "" when no row came from another input, or the
// refused row is the stream's own, or the error names its rows itself.
func refusedInputs(j *job, err error) string {
	if j.buf == nil || len(j.buf.inputs) == 0 || errors.As(err, new(*rowsNamed)) {
		return ""
	}
	if i := lineRow(j, engine.ErrorLine(err)); i >= 0 {
		if in := j.buf.inputOf(i); in != "" {
			return streamText(j.name, in)
		}
		return ""
	}
	if in := j.buf.onlyInput(); in != "" {
		return streamText(j.name, in)
	}
	var names []string
	add := func(in string) {
		if in == "" {
			in = j.name
		}
		if q := strconv.Quote(in); !slices.Contains(names, q) {
			names = append(names, q)
		}
	}
	if j.buf.inputs[0].from > 0 {
		add("") // the stream's own records came first
	}
	for _, r := range j.buf.inputs {
		add(r.input)
	}
	return fmt.Sprintf("streams %s (output %q)", strings.Join(names, ", "), j.name)
}

// rowsNamed is an error that names the input stream of each row it is
// about (the rows a reject policy found refused): refusedInputs adds
// none.
type rowsNamed struct{ error }

func (e *rowsNamed) Unwrap() error { return e.error }
