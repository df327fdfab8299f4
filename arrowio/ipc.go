package arrowio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/internal/readlimit"
)

// The IPC helpers below are thin: arrow-go's ipc package does the work, and
// importing arrowio registers FixedShapeTensorType, so fixed_shape_tensor
// columns round-trip as *FixedShapeTensorArray.
//
// Malformed input returns an error wrapping ErrInvalid, never a panic, and
// cannot make the reader allocate without bound. arrow-go v15 trusts the
// lengths written in a stream or file: a corrupt message, block or
// decompressed-buffer length makes it allocate that many bytes at once (a
// 32 GiB request kills the process: the Go runtime's out-of-memory error is
// fatal, not a panic), and it panics on some malformed bytes (its file
// reader, unlike its stream reader, has no recover; array constructors
// slice buffers shorter than the lengths the message claims). So:
//
//   - message metadata and bodies are read as the bytes arrive (a stream's
//     claimed body length costs only the bytes actually present), and
//     footers and blocks are checked against the file's size;
//   - arrow-go gets an allocator that refuses any single buffer larger than
//     WithMaxBuffer (default DefaultMaxBuffer) and any allocation that would
//     take the reader's total past WithMaxTotal (default DefaultTotalBase +
//     DefaultTotalRatio × the input read so far), which bounds decompression
//     bombs per message and per stream;
//   - arrow-go's decoding runs under a recover that turns a panic into an
//     error (the only place this package recovers), and what a failed
//     decode allocated is given back;
//   - every batch is validated (ValidateRecord) before it is returned: a
//     corrupt batch is an error, not a batch that panics when used;
//   - the dictionaries arrow-go's file reader keeps are released with the
//     reader (v15's FileReader.Close does not release them).

// DefaultMaxBuffer is the largest single buffer ReadStream and ReadFile let
// arrow-go allocate unless WithMaxBuffer says otherwise: 4 GiB.
const DefaultMaxBuffer = readlimit.DefaultMaxBuffer

// DefaultTotalBase and DefaultTotalRatio make the default of WithMaxTotal:
// over its life a reader may allocate DefaultTotalBase bytes plus
// DefaultTotalRatio times the input bytes it has read.
const (
	DefaultTotalBase  = readlimit.DefaultTotalBase
	DefaultTotalRatio = readlimit.DefaultTotalRatio
)

// WithMaxTotal sets the most bytes a reader may allocate over its whole
// life (message bodies, decompressed buffers, dictionaries, copies): n > 0
// is that many bytes, n < 0 means no limit, 0 the default
// (DefaultTotalBase + DefaultTotalRatio × the input bytes read so far).
func WithMaxTotal(n int64) ReadOption {
	return func(c *readConfig) { c.Total = n }
}

// ReadOption configures ReadStream and ReadFile.
type ReadOption func(*readConfig)

type readConfig struct {
	readlimit.Config
	ipcOpt []ipc.Option
}

// WithAllocator sets the allocator batches are read into
// (memory.DefaultAllocator by default).
func WithAllocator(mem memory.Allocator) ReadOption {
	return func(c *readConfig) { c.Mem = mem }
}

// WithMaxBuffer sets the largest single buffer (message, body, decompressed
// buffer) the reader may allocate; input that asks for more fails with an
// error wrapping ErrInvalid and ErrLimit. n <= 0 means DefaultMaxBuffer.
func WithMaxBuffer(n int) ReadOption {
	return func(c *readConfig) { c.Max = n }
}

// WithIPCOptions passes options to arrow-go's ipc reader (for instance
// ipc.WithEnsureNativeEndian or ipc.WithSchema). An ipc.WithAllocator among
// them is overridden by WithAllocator.
func WithIPCOptions(opts ...ipc.Option) ReadOption {
	return func(c *readConfig) { c.ipcOpt = append(c.ipcOpt, opts...) }
}

func newReadConfig(opts []ReadOption) ([]ipc.Option, *readlimit.Allocator) {
	var c readConfig
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	lim := c.Limiter()
	return append(nonNil(c.ipcOpt), ipc.WithAllocator(lim)), lim
}

// nonNil drops nil options (arrow-go's ipc package calls them).
func nonNil(opts []ipc.Option) []ipc.Option {
	out := make([]ipc.Option, 0, len(opts))
	for _, o := range opts {
		if o != nil {
			out = append(out, o)
		}
	}
	return out
}

// ReadStream returns a RecordReader over the IPC stream r. Each batch is
// valid until the next call to Next (Retain it to keep it). Release the
// reader when done. A bad schema (bad fixed_shape_tensor metadata included)
// fails here, and so does input that is not an IPC stream, with an error
// that says what it looks like (empty, text, Parquet, an IPC file, ...) and
// which reader takes it; a bad batch makes Next return false and Err report it
// (wrapping ErrInvalid, and ErrLimit when a limit was reached). Every batch
// returned has passed ValidateRecord. Memory: a message body is read as its
// bytes arrive (a length that lies costs at most about twice the bytes
// present), no buffer exceeds WithMaxBuffer, and the reader's allocations
// over its life stay within WithMaxTotal (by default DefaultTotalBase plus
// DefaultTotalRatio times the bytes read), which bounds decompression bombs.
func ReadStream(r io.Reader, opts ...ReadOption) (rr arrowarray.RecordReader, err error) {
	if r == nil {
		return nil, fmt.Errorf("arrowio.ReadStream: %w: nil reader", array.ErrNil)
	}
	iopts, lim := newReadConfig(opts)
	mr := &messageReader{r: r, mem: lim}
	mr.refs.Store(1)
	lim.Begin()
	var ir *ipc.Reader
	func() {
		defer readlimit.Guard(&err, "arrowio.ReadStream")
		ir, err = ipc.NewReaderFromMessageReader(mr, iopts...)
	}()
	if err != nil {
		lim.Abandon(nil) // the reader is dropped: nothing it allocated is live
		mr.Release()     // nor is the last message (kept out of the abandon)
		if d := mr.diagnose(err); d != "" {
			return nil, fmt.Errorf("arrowio.ReadStream: %w: not an Arrow IPC stream: %s", ErrInvalid, d)
		}
		if errors.Is(err, ErrInvalid) {
			return nil, err
		}
		return nil, fmt.Errorf("arrowio.ReadStream: %w: %w", ErrInvalid, err)
	}
	lim.Commit()
	g := &guardedReader{rr: ir, what: "arrowio.ReadStream", lim: lim, memo: memoOf(ir)}
	mr.memo, mr.schema = g.memo, ir.Schema()
	g.refs.Store(1)
	return g, nil
}

// guardedReader runs Next under guard and validates each batch.
type guardedReader struct {
	refs atomic.Int64
	rr   *ipc.Reader
	what string
	err  error
	lim  *readlimit.Allocator
	memo *dictMemo
}

func (g *guardedReader) Retain()               { g.refs.Add(1) }
func (g *guardedReader) Schema() *arrow.Schema { return g.rr.Schema() }

// Record returns the current batch; nil after Next returned false.
func (g *guardedReader) Record() arrow.Record {
	if g.err != nil {
		return nil
	}
	return g.rr.Record()
}

func (g *guardedReader) Release() {
	if g.refs.Add(-1) == 0 {
		g.rr.Release()
	}
}

func (g *guardedReader) Err() error {
	if g.err != nil {
		return g.err
	}
	if err := g.rr.Err(); err != nil {
		return fmt.Errorf("%s: %w: %w", g.what, ErrInvalid, err)
	}
	return nil
}

func (g *guardedReader) Next() (ok bool) {
	if g.err != nil {
		return false
	}
	g.lim.Begin()
	decoded := false // arrow-go decoded a batch (which owns what it allocated)
	defer func() {
		if !decoded && g.Err() != nil {
			g.lim.Abandon(g.memo.buffers())
		} else {
			g.lim.Commit()
		}
	}()
	func() {
		defer readlimit.Guard(&g.err, g.what)
		ok = g.rr.Next()
		decoded = ok
	}()
	if !ok && g.err == nil && g.rr.Err() != nil {
		if lerr := g.lim.TakeFailed(); lerr != nil { // arrow-go recovered it as text
			g.err = fmt.Errorf("%s: %w: %w (%v)", g.what, ErrInvalid, lerr, g.rr.Err())
		}
	}
	if g.err != nil {
		return false
	}
	if ok {
		if err := ValidateRecord(g.rr.Record()); err != nil {
			g.err = fmt.Errorf("%s: batch: %w", g.what, err)
			return false
		}
	}
	return ok
}

// ReadFile returns a RecordReader over the batches of the IPC file r, in
// order. Each batch is valid until the next call to Next. Release the
// reader when done (it does not close r); that releases the file's
// dictionaries too. Errors, validation and limits are as for ReadStream,
// the input being the whole file; input that is not an IPC file (an IPC
// stream, Parquet, text, a file cut short) says what it looks like.
func ReadFile(r ipc.ReadAtSeeker, opts ...ReadOption) (rr arrowarray.RecordReader, err error) {
	if r == nil {
		return nil, fmt.Errorf("arrowio.ReadFile: %w: nil reader", array.ErrNil)
	}
	iopts, lim := newReadConfig(opts)
	lim.Begin()
	var f *ipc.FileReader
	defer func() { // runs after guard has turned a panic into err
		if err != nil {
			lim.Abandon(nil) // the reader is dropped, its dictionaries too
		} else {
			// v15's NewFileReader drops the dictionary messages it reads
			// without releasing them: all it keeps is its memo.
			lim.Abandon(memoOf(f).buffers())
		}
	}()
	defer readlimit.Guard(&err, "arrowio.ReadFile")
	size, dicts, recs, err := checkFile(r, lim.Max)
	if err != nil {
		if d := describeFile(r); d != "" {
			return nil, fmt.Errorf("arrowio.ReadFile: %w: %s", ErrInvalid, d)
		}
		return nil, fmt.Errorf("arrowio.ReadFile: %w: %w", ErrInvalid, err)
	}
	lim.Input.Store(size) // a file's bytes are all present
	for i, b := range dicts {
		if _, err := checkBlock(r, size, b, lim.Max); err != nil {
			return nil, fmt.Errorf("arrowio.ReadFile: dictionary %d: %w: %w", i, ErrInvalid, err)
		}
	}
	f, err = ipc.NewFileReader(r, iopts...)
	if err != nil {
		return nil, fmt.Errorf("arrowio.ReadFile: %w: %w", ErrInvalid, err)
	}
	if err := memoOf(f).validate(); err != nil {
		memoOf(f).clear()
		return nil, fmt.Errorf("arrowio.ReadFile: %w", err)
	}
	fr := &fileReader{f: f, r: r, size: size, blocks: recs, lim: lim, memo: memoOf(f)}
	fr.refs.Store(1)
	return fr, nil
}

// fileReader adapts ipc.FileReader to array.RecordReader.
type fileReader struct {
	refs   atomic.Int64
	f      *ipc.FileReader
	r      ipc.ReadAtSeeker
	size   int64
	blocks []fileBlock
	lim    *readlimit.Allocator
	memo   *dictMemo
	i      int
	cur    arrow.Record
	err    error
}

func (r *fileReader) Retain()               { r.refs.Add(1) }
func (r *fileReader) Schema() *arrow.Schema { return r.f.Schema() }
func (r *fileReader) Record() arrow.Record  { return r.cur }
func (r *fileReader) Err() error            { return r.err }

func (r *fileReader) Release() {
	if r.refs.Add(-1) == 0 {
		if r.cur != nil {
			r.cur.Release()
			r.cur = nil
		}
		r.f.Close()
		r.memo.clear() // Close leaves the dictionaries to the garbage collector
	}
}

func (r *fileReader) Next() bool {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if r.err != nil || r.i >= r.f.NumRecords() || r.i >= len(r.blocks) {
		return false
	}
	rec, err := r.recordAt(r.i)
	if err != nil {
		r.err = err
		return false
	}
	r.i++
	r.cur = rec
	return true
}

func (r *fileReader) recordAt(i int) (rec arrow.Record, err error) {
	r.lim.Begin()
	defer func() {
		if err != nil {
			r.lim.Abandon(r.memo.buffers())
		} else {
			r.lim.Commit()
		}
	}()
	defer readlimit.Guard(&err, "arrowio.ReadFile")
	b := r.blocks[i]
	meta, err := checkBlock(r.r, r.size, b, r.lim.Max)
	if err != nil {
		return nil, fmt.Errorf("arrowio.ReadFile: batch %d: %w: %w", i, ErrInvalid, err)
	}
	err = checkBatchLayout(meta, r.f.Schema(), r.lim.Limit(), func(off, n int64) (int64, error) {
		var prefix [8]byte
		if _, err := r.r.ReadAt(prefix[:], b.offset+int64(b.meta)+off); err != nil {
			return 0, err
		}
		return compressedSize(prefix[:], n), nil
	})
	if err != nil {
		return nil, fmt.Errorf("arrowio.ReadFile: batch %d: %w: %w", i, ErrInvalid, err)
	}
	rec, err = r.f.RecordAt(i)
	if err != nil {
		return nil, fmt.Errorf("arrowio.ReadFile: batch %d: %w: %w", i, ErrInvalid, err)
	}
	if err := ValidateRecord(rec); err != nil {
		rec.Release()
		return nil, fmt.Errorf("arrowio.ReadFile: batch %d: %w", i, err)
	}
	return rec, nil
}

// WriteStream writes rr's schema and every batch of rr to w as an IPC
// stream, and returns the number of batches written. It does not release
// rr.
func WriteStream(w io.Writer, rr arrowarray.RecordReader, opts ...ipc.Option) (int, error) {
	if w == nil || rr == nil {
		return 0, fmt.Errorf("arrowio.WriteStream: %w: nil writer or reader", array.ErrNil)
	}
	iw := ipc.NewWriter(w, append([]ipc.Option{ipc.WithSchema(rr.Schema())}, nonNil(opts)...)...)
	return writeAll("arrowio.WriteStream", iw, rr)
}

// WriteFile writes rr's schema and every batch of rr to w as an IPC file
// (footer included), and returns the number of batches written. It does not
// release rr. w need not seek (arrow-go's file writer only asks for the
// current position, which WriteFile counts when w is not an io.WriteSeeker).
func WriteFile(w io.Writer, rr arrowarray.RecordReader, opts ...ipc.Option) (int, error) {
	if w == nil || rr == nil {
		return 0, fmt.Errorf("arrowio.WriteFile: %w: nil writer or reader", array.ErrNil)
	}
	ws, ok := w.(io.WriteSeeker)
	if !ok {
		ws = &positionWriter{w: w}
	}
	fw, err := ipc.NewFileWriter(ws, append([]ipc.Option{ipc.WithSchema(rr.Schema())}, nonNil(opts)...)...)
	if err != nil {
		return 0, fmt.Errorf("arrowio.WriteFile: %w", err)
	}
	defer releaseWrittenDicts(fw) // after Close: v15's FileWriter keeps them
	return writeAll("arrowio.WriteFile", fw, rr)
}

type recordWriter interface {
	Write(arrow.Record) error
	Close() error
}

func writeAll(what string, w recordWriter, rr arrowarray.RecordReader) (int, error) {
	n := 0
	for rr.Next() {
		if rr.Record() == nil {
			w.Close()
			return n, fmt.Errorf("%s: batch %d: %w: the reader returned a nil record", what, n, array.ErrNil)
		}
		if err := w.Write(rr.Record()); err != nil {
			w.Close()
			return n, fmt.Errorf("%s: batch %d: %w", what, n, err)
		}
		n++
	}
	if err := rr.Err(); err != nil {
		w.Close()
		return n, fmt.Errorf("%s: reading batch %d: %w", what, n, err)
	}
	if err := w.Close(); err != nil {
		return n, fmt.Errorf("%s: %w", what, err)
	}
	return n, nil
}

// WriteRecords writes recs (all with schema s) to w as an IPC stream, or as
// an IPC file when file is true. It is WriteStream/WriteFile over
// array.NewRecordReader.
func WriteRecords(w io.Writer, file bool, s *arrow.Schema, recs []arrow.Record, opts ...ipc.Option) error {
	if s == nil {
		return fmt.Errorf("arrowio.WriteRecords: %w: nil schema", array.ErrNil)
	}
	for i, r := range recs {
		if r == nil {
			return fmt.Errorf("arrowio.WriteRecords: %w: record %d is nil", array.ErrNil, i)
		}
	}
	rr, err := arrowarray.NewRecordReader(s, recs)
	if err != nil {
		return fmt.Errorf("arrowio.WriteRecords: %w: %w", array.ErrShape, err)
	}
	defer rr.Release()
	if file {
		_, err = WriteFile(w, rr, opts...)
	} else {
		_, err = WriteStream(w, rr, opts...)
	}
	return err
}

// positionWriter is an io.WriteSeeker over an io.Writer that can only tell
// its position (Seek(0, io.SeekCurrent)), all ipc.FileWriter asks.
type positionWriter struct {
	w   io.Writer
	pos int64
}

func (p *positionWriter) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	p.pos += int64(n)
	return n, err
}

func (p *positionWriter) Seek(offset int64, whence int) (int64, error) {
	if offset != 0 || whence != io.SeekCurrent {
		return p.pos, fmt.Errorf("arrowio: %w: the writer cannot seek", ErrUnsupported)
	}
	return p.pos, nil
}

// messageReader reads the messages of an IPC stream like arrow-go's, but
// checks each message's flatbuffer (checkMessage) before arrow-go parses it,
// reads the metadata as it arrives (a corrupt length costs only the bytes
// actually present) and allocates the body from the limited allocator.
type messageReader struct {
	refs   atomic.Int64
	r      io.Reader
	mem    *readlimit.Allocator
	head   []byte // the first bytes read (up to sniffLen), to say what a non-stream is
	read   int64  // bytes read before the first message was whole
	msgs   int    // messages read whole
	msg    *ipc.Message
	memo   *dictMemo     // the reader's dictionaries, checked before each message
	schema *arrow.Schema // once known, batches are checked against it
}

func (m *messageReader) Retain() { m.refs.Add(1) }

func (m *messageReader) Release() {
	if m.refs.Add(-1) == 0 && m.msg != nil {
		m.msg.Release()
		m.msg = nil
	}
}

func (m *messageReader) Message() (*ipc.Message, error) {
	// arrow-go asks for the next message after adding a dictionary batch
	// to its memo and before building a record batch over it.
	if err := m.memo.validate(); err != nil {
		return nil, err
	}
	var hdr [4]byte
	k0, err := io.ReadFull(m.r, hdr[:])
	m.note(hdr[:k0])
	if err != nil {
		return nil, fmt.Errorf("arrowio: reading a message: %w", err)
	}
	n := binary.LittleEndian.Uint32(hdr[:])
	switch n {
	case 0:
		return nil, io.EOF
	case 0xFFFFFFFF: // continuation marker, then the length
		k1, err := io.ReadFull(m.r, hdr[:])
		m.note(hdr[:k1])
		if err != nil {
			return nil, fmt.Errorf("arrowio: reading a message length: %w", err)
		}
		n = binary.LittleEndian.Uint32(hdr[:])
		if n == 0 {
			return nil, io.EOF
		}
	}
	m.mem.Input.Add(8)
	if int64(n) > int64(m.mem.Max) || int32(n) < 0 {
		return nil, fmt.Errorf("%w: message metadata of %d bytes", errFB, n)
	}
	var meta bytes.Buffer
	k, err := io.CopyN(&meta, m.r, int64(n)) // grows as the bytes arrive
	m.mem.Input.Add(k)
	m.note(meta.Bytes())
	if err != nil {
		return nil, fmt.Errorf("arrowio: reading message metadata: %w", err)
	}
	bodyLen, err := checkMessage(meta.Bytes())
	if err != nil {
		return nil, err
	}
	if bodyLen > int64(m.mem.Max) {
		return nil, fmt.Errorf("%w: %w: message body of %d bytes exceeds the limit of %d (WithMaxBuffer)", errFB, ErrLimit, bodyLen, m.mem.Max)
	}
	body, err := m.readBody(int(bodyLen))
	if err != nil {
		return nil, err
	}
	defer body.Release()
	raw := body.Bytes()
	err = checkBatchLayout(meta.Bytes(), m.schema, m.mem.Limit(), func(off, n int64) (int64, error) {
		return compressedSize(raw[off:off+8], n), nil
	})
	if err != nil {
		return nil, err
	}
	m.mem.Keep(body.Buf()) // owned by the message, not by a decode
	mb := memory.NewBufferBytes(meta.Bytes())
	if m.msg != nil {
		m.msg.Release()
	}
	m.msg = ipc.NewMessage(mb, body)
	m.msgs++
	return m.msg, nil
}

// note records bytes read before the first message was whole.
func (m *messageReader) note(b []byte) {
	if m.msgs > 0 {
		return
	}
	m.read += int64(len(b))
	if k := sniffLen - len(m.head); k > 0 {
		m.head = append(m.head, b[:min(k, len(b))]...)
	}
}

// diagnose says, when err ended a stream before its first message was
// whole and the bytes do not start like a message, what they look like
// (describeInput); "" otherwise.
func (m *messageReader) diagnose(err error) string {
	if m.msgs > 0 || (looksLikeStream(m.head) && magicOf(m.head) == "") {
		return ""
	}
	total := int64(-1)
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		total = m.read // all there was
	}
	if len(m.head) == 0 && total < 0 {
		return ""
	}
	return describeInput(m.head, total, "stream")
}

// bodyChunk is the first allocation for a message body whose length cannot
// be checked against the bytes remaining.
const bodyChunk = 64 << 10

// readBody reads a message body of n bytes into a buffer from the limited
// allocator. When the reader can tell how many bytes remain (a
// bytes.Reader, a bytes.Buffer, ...), a body longer than that fails before
// any allocation; otherwise the buffer grows (doubling, from bodyChunk) as
// the bytes arrive, so a body length that lies costs at most about twice
// the bytes actually present.
func (m *messageReader) readBody(n int) (body *memory.Buffer, err error) {
	if l, ok := m.r.(interface{ Len() int }); ok && l.Len() < n {
		return nil, fmt.Errorf("arrowio: %w: a message body of %d bytes with %d bytes left", errFB, n, l.Len())
	}
	body = memory.NewResizableBuffer(m.mem)
	defer func() {
		if p := recover(); p != nil { // the allocator refused
			pe, ok := p.(error)
			if !ok {
				panic(p)
			}
			err = fmt.Errorf("arrowio: reading a message body of %d bytes: %w", n, pe)
		}
		if err != nil {
			body.Release()
			body = nil
		}
	}()
	if _, ok := m.r.(interface{ Len() int }); ok {
		body.Resize(n)
		k, err := io.ReadFull(m.r, body.Bytes())
		m.mem.Input.Add(int64(k))
		if err != nil {
			return nil, fmt.Errorf("arrowio: reading a message body of %d bytes: %w", n, err)
		}
		return body, nil
	}
	got := 0
	for got < n {
		next := min(n, max(2*got, bodyChunk))
		body.Resize(next)
		k, err := io.ReadFull(m.r, body.Bytes()[got:next])
		m.mem.Input.Add(int64(k))
		if err != nil {
			return nil, fmt.Errorf("arrowio: reading a message body of %d bytes (%d present): %w", n, got+k, err)
		}
		got = next
	}
	return body, nil
}

// checkFile reads and checks the footer of an IPC file (as arrow-go's
// FileReader will read it) and returns the file size and the blocks.
func checkFile(r ipc.ReadAtSeeker, max int) (int64, []fileBlock, []fileBlock, error) {
	size, err := r.Seek(0, io.SeekEnd)
	if err != nil {
		return 0, nil, nil, err
	}
	const magic = "ARROW1"
	tail := int64(len(magic) + 4)
	if size <= int64(2*len(magic)+4) {
		return 0, nil, nil, fmt.Errorf("%w: file of %d bytes", errFB, size)
	}
	var end [10]byte
	if _, err := r.ReadAt(end[:], size-tail); err != nil {
		return 0, nil, nil, err
	}
	if string(end[4:]) != magic {
		return 0, nil, nil, fmt.Errorf("%w: not an Arrow file", errFB)
	}
	n := int64(binary.LittleEndian.Uint32(end[:4]))
	if n <= 0 || n+int64(2*len(magic)+4) > size || n > int64(max) {
		return 0, nil, nil, fmt.Errorf("%w: footer of %d bytes in a file of %d", errFB, n, size)
	}
	footer := make([]byte, n)
	if _, err := r.ReadAt(footer, size-tail-n); err != nil {
		return 0, nil, nil, err
	}
	dicts, recs, err := checkFooter(footer)
	return size, dicts, recs, err
}

// describeFile says, for input whose footer is not an IPC file's, what
// it is: a truncated IPC file (it starts with "ARROW1" but does not end
// with it), or not an IPC file at all and what it looks like
// (describeInput). "" when it cannot tell (the input cannot be read, or
// starts and ends like an IPC file whose footer is broken).
func describeFile(r ipc.ReadAtSeeker) string {
	size, err := r.Seek(0, io.SeekEnd)
	if err != nil || size < 0 {
		return ""
	}
	head := make([]byte, min(size, sniffLen))
	if n, err := r.ReadAt(head, 0); n < len(head) && err != nil {
		return ""
	}
	if bytes.HasPrefix(head, []byte("ARROW1")) {
		var end [6]byte
		if size >= 6 {
			if _, err := r.ReadAt(end[:], size-6); err == nil && string(end[:]) == "ARROW1" && size > 12 {
				return ""
			}
		}
		return fmt.Sprintf("the input of %d bytes starts like an Arrow IPC file but does not end like one (truncated, or its writer was not closed)", size)
	}
	return "not an Arrow IPC file: " + describeInput(head, size, "file")
}

// checkBlock checks that a file block lies inside the file and that its
// message's flatbuffer is sound, before arrow-go reads it, and returns the
// message's flatbuffer.
func checkBlock(r ipc.ReadAtSeeker, size int64, b fileBlock, max int) ([]byte, error) {
	if b.offset < 0 || b.meta < 8 || b.body < 0 || b.offset > size || int64(b.meta) > size-b.offset || b.body > size-b.offset-int64(b.meta) {
		return nil, fmt.Errorf("%w: block (offset %d, metadata %d, body %d) outside a file of %d bytes", errFB, b.offset, b.meta, b.body, size)
	}
	if int64(b.meta) > int64(max) || b.body > int64(max) {
		return nil, fmt.Errorf("%w: block larger than the limit of %d (WithMaxBuffer)", errFB, max)
	}
	meta := make([]byte, b.meta)
	if _, err := r.ReadAt(meta, b.offset); err != nil {
		return nil, err
	}
	prefix := 0
	switch binary.LittleEndian.Uint32(meta) {
	case 0:
	case 0xFFFFFFFF:
		prefix = 8
	default:
		prefix = 4
	}
	bodyLen, err := checkMessage(meta[prefix:])
	if err != nil {
		return nil, err
	}
	if bodyLen > b.body {
		return nil, fmt.Errorf("%w: message body of %d bytes in a block body of %d", errFB, bodyLen, b.body)
	}
	return meta[prefix:], nil
}
