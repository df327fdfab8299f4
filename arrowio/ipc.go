package arrowio

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
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
// slice buffers shorter than the lengths the message claims). So the readers
// below give arrow-go an allocator that refuses any single buffer larger
// than a limit (WithMaxBuffer, default DefaultMaxBuffer), and run arrow-go's
// decoding under a recover that turns a panic into an error. That is the
// only place this package recovers.

// DefaultMaxBuffer is the largest single buffer ReadStream and ReadFile let
// arrow-go allocate unless WithMaxBuffer says otherwise: 4 GiB.
const DefaultMaxBuffer = 4 << 30

// ReadOption configures ReadStream and ReadFile.
type ReadOption func(*readConfig)

type readConfig struct {
	mem    memory.Allocator
	max    int
	ipcOpt []ipc.Option
}

// WithAllocator sets the allocator batches are read into
// (memory.DefaultAllocator by default).
func WithAllocator(mem memory.Allocator) ReadOption {
	return func(c *readConfig) { c.mem = mem }
}

// WithMaxBuffer sets the largest single buffer (message, body, decompressed
// buffer) the reader may allocate; input that asks for more fails with
// ErrInvalid. n <= 0 means DefaultMaxBuffer.
func WithMaxBuffer(n int) ReadOption {
	return func(c *readConfig) { c.max = n }
}

// WithIPCOptions passes options to arrow-go's ipc reader (for instance
// ipc.WithEnsureNativeEndian or ipc.WithSchema). An ipc.WithAllocator among
// them is overridden by WithAllocator.
func WithIPCOptions(opts ...ipc.Option) ReadOption {
	return func(c *readConfig) { c.ipcOpt = append(c.ipcOpt, opts...) }
}

func newReadConfig(opts []ReadOption) ([]ipc.Option, *limitAllocator) {
	c := readConfig{mem: memory.DefaultAllocator, max: DefaultMaxBuffer}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if c.mem == nil {
		c.mem = memory.DefaultAllocator
	}
	if c.max <= 0 {
		c.max = DefaultMaxBuffer
	}
	lim := &limitAllocator{mem: c.mem, max: c.max}
	return append(c.ipcOpt, ipc.WithAllocator(lim)), lim
}

// limitAllocator refuses (by panicking with an error that the readers
// recover) any single allocation larger than max. While a decode is under
// way (begin .. commit/abandon) it also remembers what it hands out and is
// not yet freed, so that when arrow-go fails half-way through a batch the
// buffers it allocated and dropped can be given back (abandon) instead of
// leaking from the caller's allocator.
type limitAllocator struct {
	mem memory.Allocator
	max int

	mu      sync.Mutex
	active  bool
	pending map[*byte][]byte
}

func (l *limitAllocator) check(n int) {
	if n < 0 || n > l.max {
		panic(fmt.Errorf("arrowio: buffer of %d bytes exceeds the limit of %d (WithMaxBuffer)", n, l.max))
	}
}

func (l *limitAllocator) Allocate(n int) []byte {
	l.check(n)
	b := l.mem.Allocate(n)
	l.note(nil, b)
	return b
}

func (l *limitAllocator) Reallocate(n int, b []byte) []byte {
	l.check(n)
	nb := l.mem.Reallocate(n, b)
	l.note(b, nb)
	return nb
}

func (l *limitAllocator) Free(b []byte) {
	l.note(b, nil)
	l.mem.Free(b)
}

// note records that old was given back and nb handed out.
func (l *limitAllocator) note(old, nb []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(old) > 0 && l.pending != nil {
		delete(l.pending, &old[0])
	}
	if len(nb) > 0 && l.active {
		l.pending[&nb[0]] = nb
	}
}

func (l *limitAllocator) begin() {
	l.mu.Lock()
	l.active, l.pending = true, map[*byte][]byte{}
	l.mu.Unlock()
}

// keep stops tracking b (it is owned by a live object).
func (l *limitAllocator) keep(b []byte) { l.note(b, nil) }

// commit: everything handed out belongs to the decoded batch.
func (l *limitAllocator) commit() {
	l.mu.Lock()
	l.active, l.pending = false, nil
	l.mu.Unlock()
}

// abandon frees what the failed decode handed out and nobody gave back.
func (l *limitAllocator) abandon() {
	l.mu.Lock()
	orphans := l.pending
	l.active, l.pending = false, nil
	l.mu.Unlock()
	for _, b := range orphans {
		l.mem.Free(b)
	}
}

// hasDictionaries reports whether a schema has dictionary-encoded fields,
// whose dictionaries a stream reader keeps across batches (their buffers
// must not be abandoned with a failed batch).
func hasDictionaries(s *arrow.Schema) bool {
	var walk func(t arrow.DataType) bool
	walk = func(t arrow.DataType) bool {
		switch t := t.(type) {
		case *arrow.DictionaryType:
			return true
		case arrow.ExtensionType:
			return walk(t.StorageType())
		case arrow.NestedType:
			for _, f := range t.Fields() {
				if walk(f.Type) {
					return true
				}
			}
		}
		return false
	}
	for _, f := range s.Fields() {
		if walk(f.Type) {
			return true
		}
	}
	return false
}

// ReadStream returns a RecordReader over the IPC stream r. Each batch is
// valid until the next call to Next (Retain it to keep it). Release the
// reader when done. A bad schema (bad fixed_shape_tensor metadata included)
// fails here; a bad batch makes Next return false and Err report it.
func ReadStream(r io.Reader, opts ...ReadOption) (rr arrowarray.RecordReader, err error) {
	if r == nil {
		return nil, fmt.Errorf("arrowio.ReadStream: %w: nil reader", array.ErrNil)
	}
	iopts, lim := newReadConfig(opts)
	defer guard(&err, "arrowio.ReadStream")
	mr := &messageReader{r: r, mem: lim}
	mr.refs.Store(1)
	lim.begin()
	ir, err := ipc.NewReaderFromMessageReader(mr, iopts...)
	if err != nil {
		lim.abandon() // the reader is dropped: nothing it allocated is live
		mr.Release()  // nor is the last message (kept out of the abandon)
		return nil, fmt.Errorf("arrowio.ReadStream: %w: %w", ErrInvalid, err)
	}
	lim.commit()
	g := &guardedReader{rr: ir, what: "arrowio.ReadStream", lim: lim, dicts: hasDictionaries(ir.Schema())}
	g.refs.Store(1)
	return g, nil
}

// guard turns a panic of arrow-go's decoder into an error wrapping
// ErrInvalid.
func guard(err *error, what string) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("%s: %w: arrow-go panicked: %v", what, ErrInvalid, p)
	}
}

// guardedReader runs Next under guard.
type guardedReader struct {
	refs  atomic.Int64
	rr    arrowarray.RecordReader
	what  string
	err   error
	lim   *limitAllocator
	dicts bool
}

func (g *guardedReader) Retain()               { g.refs.Add(1) }
func (g *guardedReader) Schema() *arrow.Schema { return g.rr.Schema() }
func (g *guardedReader) Record() arrow.Record  { return g.rr.Record() }

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
	g.lim.begin()
	defer func() {
		if p := recover(); p != nil {
			g.err = fmt.Errorf("%s: %w: arrow-go panicked: %v", g.what, ErrInvalid, p)
			ok = false
		}
		if !ok && g.Err() != nil && !g.dicts {
			g.lim.abandon()
		} else {
			g.lim.commit()
		}
	}()
	return g.rr.Next()
}

// ReadFile returns a RecordReader over the batches of the IPC file r, in
// order. Each batch is valid until the next call to Next. Release the
// reader when done (it does not close r).
func ReadFile(r ipc.ReadAtSeeker, opts ...ReadOption) (rr arrowarray.RecordReader, err error) {
	if r == nil {
		return nil, fmt.Errorf("arrowio.ReadFile: %w: nil reader", array.ErrNil)
	}
	iopts, lim := newReadConfig(opts)
	lim.begin()
	defer func() { // runs after guard has turned a panic into err
		if err != nil {
			lim.abandon()
		} else {
			lim.commit()
		}
	}()
	defer guard(&err, "arrowio.ReadFile")
	size, dicts, recs, err := checkFile(r, lim.max)
	if err != nil {
		return nil, fmt.Errorf("arrowio.ReadFile: %w: %w", ErrInvalid, err)
	}
	for i, b := range dicts {
		if err := checkBlock(r, size, b, lim.max); err != nil {
			return nil, fmt.Errorf("arrowio.ReadFile: dictionary %d: %w: %w", i, ErrInvalid, err)
		}
	}
	f, err := ipc.NewFileReader(r, iopts...)
	if err != nil {
		return nil, fmt.Errorf("arrowio.ReadFile: %w: %w", ErrInvalid, err)
	}
	fr := &fileReader{f: f, r: r, size: size, blocks: recs, lim: lim}
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
	lim    *limitAllocator
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
	r.lim.begin()
	defer func() {
		if err != nil {
			r.lim.abandon()
		} else {
			r.lim.commit()
		}
	}()
	defer guard(&err, "arrowio.ReadFile")
	if err := checkBlock(r.r, r.size, r.blocks[i], r.lim.max); err != nil {
		return nil, fmt.Errorf("arrowio.ReadFile: batch %d: %w: %w", i, ErrInvalid, err)
	}
	rec, err = r.f.RecordAt(i)
	if err != nil {
		return nil, fmt.Errorf("arrowio.ReadFile: batch %d: %w: %w", i, ErrInvalid, err)
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
	iw := ipc.NewWriter(w, append([]ipc.Option{ipc.WithSchema(rr.Schema())}, opts...)...)
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
	fw, err := ipc.NewFileWriter(ws, append([]ipc.Option{ipc.WithSchema(rr.Schema())}, opts...)...)
	if err != nil {
		return 0, fmt.Errorf("arrowio.WriteFile: %w", err)
	}
	return writeAll("arrowio.WriteFile", fw, rr)
}

type recordWriter interface {
	Write(arrow.Record) error
	Close() error
}

func writeAll(what string, w recordWriter, rr arrowarray.RecordReader) (int, error) {
	n := 0
	for rr.Next() {
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
	refs atomic.Int64
	r    io.Reader
	mem  *limitAllocator
	msg  *ipc.Message
}

func (m *messageReader) Retain() { m.refs.Add(1) }

func (m *messageReader) Release() {
	if m.refs.Add(-1) == 0 && m.msg != nil {
		m.msg.Release()
		m.msg = nil
	}
}

func (m *messageReader) Message() (*ipc.Message, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(m.r, hdr[:]); err != nil {
		return nil, fmt.Errorf("arrowio: reading a message: %w", err)
	}
	n := binary.LittleEndian.Uint32(hdr[:])
	switch n {
	case 0:
		return nil, io.EOF
	case 0xFFFFFFFF: // continuation marker, then the length
		if _, err := io.ReadFull(m.r, hdr[:]); err != nil {
			return nil, fmt.Errorf("arrowio: reading a message length: %w", err)
		}
		n = binary.LittleEndian.Uint32(hdr[:])
		if n == 0 {
			return nil, io.EOF
		}
	}
	if int64(n) > int64(m.mem.max) || int32(n) < 0 {
		return nil, fmt.Errorf("%w: message metadata of %d bytes", errFB, n)
	}
	var meta bytes.Buffer
	if _, err := io.CopyN(&meta, m.r, int64(n)); err != nil {
		return nil, fmt.Errorf("arrowio: reading message metadata: %w", err)
	}
	bodyLen, err := checkMessage(meta.Bytes())
	if err != nil {
		return nil, err
	}
	if bodyLen > int64(m.mem.max) {
		return nil, fmt.Errorf("%w: message body of %d bytes exceeds the limit of %d (WithMaxBuffer)", errFB, bodyLen, m.mem.max)
	}
	body := memory.NewResizableBuffer(m.mem)
	defer body.Release()
	body.Resize(int(bodyLen))
	if _, err := io.ReadFull(m.r, body.Bytes()); err != nil {
		return nil, fmt.Errorf("arrowio: reading a message body: %w", err)
	}
	m.mem.keep(body.Buf()) // owned by the message, not by a decode
	mb := memory.NewBufferBytes(meta.Bytes())
	if m.msg != nil {
		m.msg.Release()
	}
	m.msg = ipc.NewMessage(mb, body)
	return m.msg, nil
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

// checkBlock checks that a file block lies inside the file and that its
// message's flatbuffer is sound, before arrow-go reads it.
func checkBlock(r ipc.ReadAtSeeker, size int64, b fileBlock, max int) error {
	if b.offset < 0 || b.meta < 8 || b.body < 0 || b.offset > size || int64(b.meta) > size-b.offset || b.body > size-b.offset-int64(b.meta) {
		return fmt.Errorf("%w: block (offset %d, metadata %d, body %d) outside a file of %d bytes", errFB, b.offset, b.meta, b.body, size)
	}
	if int64(b.meta) > int64(max) || b.body > int64(max) {
		return fmt.Errorf("%w: block larger than the limit of %d (WithMaxBuffer)", errFB, max)
	}
	meta := make([]byte, b.meta)
	if _, err := r.ReadAt(meta, b.offset); err != nil {
		return err
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
		return err
	}
	if bodyLen > b.body {
		return fmt.Errorf("%w: message body of %d bytes in a block body of %d", errFB, bodyLen, b.body)
	}
	return nil
}
