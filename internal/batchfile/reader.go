// Package batchfile reads the files a Singer BATCH message names (jsonl,
// gzip-compressed jsonl, Parquet; local file: URIs and absolute paths), one
// row at a time, as RECORD messages of the BATCH message's stream. The
// reader (internal/singer) parses the BATCH message; jsonl rows are split
// with its line reader and checked with its scanner, so a row reads as an
// input line would.
package batchfile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/singer"
)

// Options tunes a Reader.
type Options struct {
	// MaxLineBytes is the longest accepted row (a jsonl line without its
	// line ending, a Parquet row's JSON text); 0 means
	// singer.DefaultMaxLineBytes. A longer row is an *inputerr.Error.
	MaxLineBytes int
	// Interrupt, if set, is called before each read of a BATCH file's
	// bytes; an error from it ends the read with that error, so that a
	// signal stops even an endless line.
	Interrupt func() error
	// Refuse, if set, is asked about each file before it is opened: an
	// error from it (a file the run itself writes, reject_path or
	// summary_path, which rejects would feed back into) is returned,
	// wrapped with the file's name, and nothing of the file is read.
	Refuse func(path string) error
}

// A Reader reads the rows of the files of one BATCH message.
//
// Errors: a manifest entry that cannot be read — unsupported URL, missing
// or unreadable file, corrupt or non-gzip data labelled gzip — is a plain
// error naming the file and the BATCH message's line (the run fails with
// exit 1). A row that is not a valid JSON object, or is over the line
// limit, is an *inputerr.Error with Line set to the BATCH message's line and
// naming the file and its line.
//
// A Reader is not safe for concurrent use.
type Reader struct {
	stream string
	line   int64         // line of the BATCH message
	gzip   bool          // the encoding says "gzip" (jsonl files are read as gzip whenever they are: gunzip)
	pq     *parquetState // nil for jsonl
	urls   []string      // manifest entries as written
	paths  []string      // the local files they name
	alts   []string      // nil, or per file the path as written, tried when paths[i] does not exist (see localPath)
	next   int           // index of the next file to open

	file   *os.File      // current file, nil between files
	zbuf   *bufio.Reader // compressed input, reused across files
	zr     *gzip.Reader
	lr     *singer.LineReader
	msg    singer.Message
	closed bool

	interrupt func() error
	refuse    func(path string) error
}

// interruptible asks check before each read.
type interruptible struct {
	r     io.Reader
	check func() error
}

func (r interruptible) Read(p []byte) (int, error) {
	if err := r.check(); err != nil {
		return 0, err
	}
	return r.r.Read(p)
}

// Open streams the records of a BATCH message's manifest files, in
// manifest order, one file at a time, never reading a file whole into
// memory. Rows are RECORD messages of msg.Stream with Line = msg.Line and
// File/FileLine set. Each line of a jsonl file is one bare record object,
// as the Singer SDK writes them; blank lines are skipped. Each row of a
// parquet file becomes the JSON object text of the row (see parquet.go),
// with FileLine its 1-based row number; for parquet, "compression" is
// ignored: page compression is inside the file, as the SDK writes it.
//
// Manifest entries are local file URIs (RFC 8089) or absolute paths; see
// localPath. Open copies what it needs from msg, so the singer.Reader that
// returned msg may move on. No file is opened before the first Next.
func Open(msg *singer.Message, opts Options) (*Reader, error) {
	if msg.Type != singer.TypeBatch {
		return nil, fmt.Errorf("line %d: batchfile.Open called for a %s message", msg.Line, msg.Type)
	}
	if f := msg.Encoding.Format; f != "jsonl" && f != "parquet" {
		return nil, fmt.Errorf("line %d: stream %q: unsupported BATCH format %q", msg.Line, msg.Stream, msg.Encoding.Format)
	}
	b := &Reader{
		stream: msg.Stream,
		line:   msg.Line,
		gzip:   msg.Encoding.Compression == "gzip" && msg.Encoding.Format == "jsonl",
		urls:   append([]string(nil), msg.Manifest...),
		paths:  make([]string, len(msg.Manifest)),
		lr:     singer.NewLineReader(nil, opts.MaxLineBytes),

		interrupt: opts.Interrupt,
		refuse:    opts.Refuse,
	}
	for i, u := range b.urls {
		p, alt, err := localPath(u)
		if err != nil {
			return nil, fmt.Errorf("line %d: stream %q: BATCH manifest: %w", msg.Line, msg.Stream, err)
		}
		b.paths[i] = p
		if alt != "" {
			if b.alts == nil {
				b.alts = make([]string, len(b.urls))
			}
			b.alts[i] = alt
		}
	}
	if msg.Encoding.Format == "parquet" {
		b.pq = new(parquetState)
	}
	return b, nil
}

// localPath maps a manifest entry to a local file path, and to a second
// path to try when the first does not exist ("" when there is none).
//
// Accepted: file:///abs/path, file://localhost/abs/path, file:/abs/path
// (RFC 8089's short form) and a bare absolute path. The Singer SDK writes
// file:///abs/path: since v0.46 with pathlib's as_uri, which percent-encodes
// (a space is %20); before, with PyFilesystem's OSFS.geturl, "file://" and
// the path as it is. A URI's path is therefore percent-decoded, and when the
// decoded file does not exist but the path as written does (an older SDK's
// file named "50%25.jsonl"), that one is read. Neither SDK writes a relative
// file: URI or one naming another host; both are refused, as is every
// other scheme (s3://, https://): only local files are read.
func localPath(u string) (path, alt string, err error) {
	scheme, rest, ok := cutScheme(u)
	if !ok {
		if filepath.IsAbs(u) {
			return u, "", nil
		}
		return "", "", fmt.Errorf("%q is neither a file: URI nor an absolute path", u)
	}
	if !strings.EqualFold(scheme, "file") {
		return "", "", fmt.Errorf("unsupported URL scheme %q in %q (only local file: URIs are read)", scheme, u)
	}
	if auth, ok := strings.CutPrefix(rest, "//"); ok {
		host, tail, found := strings.Cut(auth, "/")
		switch {
		case !found && host == "":
			return "", "", fmt.Errorf("empty file URL %q", u)
		case !found && strings.EqualFold(host, "localhost"):
			return "", "", fmt.Errorf("file URI %q has no path", u)
		case !found || host != "" && !strings.EqualFold(host, "localhost"):
			return "", "", fmt.Errorf("file URI %q names the host %q: only local files are read "+
				"(file:///abs/path or file://localhost/abs/path; a relative path is not a file: URI)", u, host)
		}
		rest = "/" + tail
	}
	if !strings.HasPrefix(rest, "/") {
		return "", "", fmt.Errorf("file URI %q has a relative path; the Singer SDK writes absolute ones (file:///abs/path)", u)
	}
	dec, err := url.PathUnescape(rest)
	if err != nil { // a bare % that is no escape: the path as written
		return rest, "", nil
	}
	if strings.IndexByte(dec, 0) >= 0 {
		return "", "", fmt.Errorf("file URI %q decodes to a path with a NUL byte", u)
	}
	if dec == rest {
		return dec, "", nil
	}
	return dec, rest, nil
}

// cutScheme splits "scheme:rest" when u starts with an RFC 3986 scheme
// of two or more characters (a one-letter one would be a Windows drive).
func cutScheme(u string) (scheme, rest string, ok bool) {
	i := strings.IndexByte(u, ':')
	if i < 2 {
		return "", "", false
	}
	for j := 0; j < i; j++ {
		c := u[j]
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if !letter && (j == 0 || !('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return "", "", false
		}
	}
	return u[:i], u[i+1:], true
}

// Next returns the next row, or io.EOF after the last row of the last file.
// The returned Message is valid until the next call to Next.
func (b *Reader) Next() (*singer.Message, error) {
	if b.closed {
		return nil, errors.New("batchfile: Next on a closed Reader")
	}
	if b.pq != nil {
		return b.nextParquet()
	}
	for {
		if b.file == nil {
			if b.next >= len(b.paths) {
				return nil, io.EOF
			}
			if err := b.open(); err != nil {
				return nil, err
			}
		}
		line, err := b.lr.Next()
		switch {
		case err == nil:
			return b.row(line)
		case err == io.EOF:
			if err := b.closeFile(); err != nil {
				return nil, err
			}
		case errors.Is(err, singer.ErrLineTooLong):
			return nil, b.inputError(fmt.Errorf("longer than the limit of %d bytes", b.lr.Max()))
		default:
			return nil, b.fileError(b.next-1, fmt.Errorf("read line %d: %w", b.lr.Line()+1, err))
		}
	}
}

// resolve settles which path file i is read from: the decoded one, or the
// path as written when only that exists (see localPath).
func (b *Reader) resolve(i int) {
	if b.alts == nil || b.alts[i] == "" {
		return
	}
	if _, err := os.Stat(b.paths[i]); errors.Is(err, fs.ErrNotExist) {
		if _, err := os.Stat(b.alts[i]); err == nil {
			b.paths[i] = b.alts[i]
		}
	}
}

// open opens the next file of the manifest.
func (b *Reader) open() error {
	i := b.next
	b.next++
	b.resolve(i)
	if err := b.refused(i); err != nil {
		return err
	}
	// A device or a FIFO may never end (/dev/zero) or never answer (even
	// opening a FIFO blocks): a BATCH file is a file, checked before the
	// open.
	if fi, err := os.Stat(b.paths[i]); err == nil && !fi.Mode().IsRegular() {
		return b.fileError(i, fmt.Errorf("not a regular file (%s)", fi.Mode().Type()))
	}
	f, err := os.Open(b.paths[i])
	if err != nil {
		return b.fileError(i, err)
	}
	var src io.Reader = f
	if b.pq == nil { // jsonl
		if src, err = b.gunzip(f); err != nil {
			f.Close()
			return b.fileError(i, err)
		}
	}
	b.file = f
	if b.interrupt != nil {
		src = interruptible{src, b.interrupt}
	}
	b.lr.Reset(src)
	return nil
}

// gunzip returns the content of jsonl file f: decompressed when it
// starts like gzip data, whatever the encoding says, and as it is
// otherwise, unless the encoding says "gzip" (a clear error rather than
// a decompressor's complaint). The Singer SDK's JSON-lines batcher writes
// gzip files whatever its batch_config's compression (none, or left out,
// included), and its BATCH message says what the config says. Sniffing
// makes no valid file ambiguous: JSON lines never start with 0x1f, a
// control character that is not JSON white space.
func (b *Reader) gunzip(f *os.File) (io.Reader, error) {
	if b.zbuf == nil {
		b.zbuf = bufio.NewReader(f)
	} else {
		b.zbuf.Reset(f)
	}
	magic, err := b.zbuf.Peek(2)
	if err != nil && err != io.EOF {
		return nil, err
	}
	if !bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		if b.gzip {
			return nil, errors.New(`not gzip data, but the BATCH encoding says "gzip"`)
		}
		return b.zbuf, nil
	}
	if b.zr == nil {
		b.zr, err = gzip.NewReader(b.zbuf)
	} else {
		err = b.zr.Reset(b.zbuf)
	}
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	return b.zr, nil
}

// row checks that line is one JSON object and returns it as a RECORD.
func (b *Reader) row(line []byte) (*singer.Message, error) {
	rec, err := singer.ScanObject(line)
	if err != nil {
		ie := b.inputError(err)
		ie.Property = singer.ObjectErrorProperty(line, err)
		return nil, ie
	}
	b.msg = singer.Message{
		Type:     singer.TypeRecord,
		Line:     b.line,
		Stream:   b.stream,
		Record:   rec,
		File:     b.urls[b.next-1],
		FileLine: b.lr.Line(),
	}
	return &b.msg, nil
}

func (b *Reader) inputError(err error) *inputerr.Error {
	return &inputerr.Error{
		Line:     b.line,
		Stream:   b.stream,
		File:     b.urls[b.next-1],
		FileLine: b.lr.Line(),
		Err:      err,
	}
}

// refused asks Options.Refuse about file i.
func (b *Reader) refused(i int) error {
	if b.refuse == nil {
		return nil
	}
	if err := b.refuse(b.paths[i]); err != nil {
		return b.fileError(i, err)
	}
	return nil
}

func (b *Reader) fileError(i int, err error) error {
	return fmt.Errorf("line %d: stream %q: BATCH file %q: %w", b.line, b.stream, b.urls[i], err)
}

func (b *Reader) closeFile() error {
	if b.file == nil {
		return nil
	}
	if b.pq != nil {
		b.pq.release()
	}
	err := b.file.Close()
	b.file = nil
	if err != nil {
		return b.fileError(b.next-1, err)
	}
	return nil
}

// Close closes the current file, if any. Next must not be called after it.
func (b *Reader) Close() error {
	b.closed = true
	return b.closeFile()
}
