package cabi

/*
#include <stdlib.h>
#include <string.h>
#include "abi.h"

// An arena of everything the builder allocates, freed at once by
// s0_h_free_all, so that structs with lying counts never make the release
// callbacks read past what was allocated: the callbacks only mark structs
// released (and release the children they actually have).
static void** s0_h_arena;
static size_t s0_h_len, s0_h_cap;
static long s0_h_releases; // release calls on structs built as top level

static void* s0_h_calloc(size_t n) {
	if (s0_h_len == s0_h_cap) {
		s0_h_cap = s0_h_cap ? 2 * s0_h_cap : 64;
		s0_h_arena = realloc(s0_h_arena, s0_h_cap * sizeof(void*));
	}
	void* p = calloc(1, n ? n : 1);
	s0_h_arena[s0_h_len++] = p;
	return p;
}

static void s0_h_free_all(void) {
	for (size_t i = 0; i < s0_h_len; i++) free(s0_h_arena[i]);
	s0_h_len = 0;
	s0_h_releases = 0;
}

// private_data of every built struct: the children it really has, and
// whether it is a top-level struct.
typedef struct { int64_t nchild; void** child; void* dict; int top; } s0_h_priv;

static void s0_h_release_schema(struct ArrowSchema* s) {
	s0_h_priv* p = (s0_h_priv*)s->private_data;
	for (int64_t i = 0; i < p->nchild; i++) {
		struct ArrowSchema* c = (struct ArrowSchema*)p->child[i];
		if (c && c->release) c->release(c);
	}
	struct ArrowSchema* d = (struct ArrowSchema*)p->dict;
	if (d && d->release) d->release(d);
	if (p->top) s0_h_releases++;
	s->release = NULL;
}

static void s0_h_release_array(struct ArrowArray* a) {
	s0_h_priv* p = (s0_h_priv*)a->private_data;
	for (int64_t i = 0; i < p->nchild; i++) {
		struct ArrowArray* c = (struct ArrowArray*)p->child[i];
		if (c && c->release) c->release(c);
	}
	struct ArrowArray* d = (struct ArrowArray*)p->dict;
	if (d && d->release) d->release(d);
	if (p->top) s0_h_releases++;
	a->release = NULL;
}

static void s0_h_release_stream(struct ArrowArrayStream* s) { s0_h_releases++; s->release = NULL; }
static struct ArrowArrayStream* s0_h_half_stream(void) {
	struct ArrowArrayStream* s = (struct ArrowArrayStream*)s0_h_calloc(sizeof *s);
	s->release = s0_h_release_stream;
	return s;
}
static long s0_h_release_count(void) { return s0_h_releases; }
static void s0_h_set_schema_release(struct ArrowSchema* s) { s->release = s0_h_release_schema; }
static void s0_h_set_array_release(struct ArrowArray* a) { a->release = s0_h_release_array; }

// s0_h_poison_* leave release NULL (released) and point everything else at
// an address that faults if read.
static void s0_h_poison_schema(struct ArrowSchema* s) {
	s->format = (const char*)8; s->name = (const char*)8; s->metadata = (const char*)8;
	s->n_children = 3; s->children = (struct ArrowSchema**)8; s->dictionary = (struct ArrowSchema*)8;
	s->release = NULL; s->private_data = (void*)8;
}
static void s0_h_poison_array(struct ArrowArray* a) {
	a->length = 5; a->n_buffers = 2; a->n_children = 2;
	a->buffers = (const void**)8; a->children = (struct ArrowArray**)8; a->dictionary = (struct ArrowArray*)8;
	a->release = NULL; a->private_data = (void*)8;
}
*/
import "C"

import (
	"encoding/binary"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow/cdata"
)

// BufSize is the size of every buffer the builder makes (zeroed): arrays
// whose type and length+offset need more would be read past their end, so
// callers keep (length+offset) * element width within it.
const BufSize = 1 << 16

// HSchema describes an ArrowSchema to build in C memory with arbitrary
// contents and valid pointers.
type HSchema struct {
	Format   string
	NoFormat bool // format pointer NULL
	Name     string
	Metadata [][2]string // encoded as the specification says; nil: NULL
	// RawMetadata, when not nil, is the metadata blob as given (Metadata
	// is then ignored): hostile counts and lengths.
	RawMetadata []byte
	Flags       int64
	NChildren   int64 // as written; the children array has max(NChildren, len(Children)) slots
	Children    []*HSchema
	NoChildren  bool // children pointer NULL
	Dictionary  *HSchema
	Released    bool // release NULL
}

// HArray describes an ArrowArray to build in C memory: every buffer is a
// zeroed block of BufSize bytes or NULL.
type HArray struct {
	Length, NullCount, Offset int64
	NBuffers                  int64  // as written; the buffers array has max(NBuffers, len(Buffers)) slots
	Buffers                   []bool // true: a buffer, false: NULL
	NoBuffers                 bool   // buffers pointer NULL
	NChildren                 int64
	Children                  []*HArray
	NoChildren                bool
	Dictionary                *HArray
	Released                  bool
}

func slots(n int64, l int) int {
	if n > int64(l) && n <= 1<<10 {
		return int(n)
	}
	return l
}

func cstr(s string) *C.char {
	p := (*C.char)(C.s0_h_calloc(C.size_t(len(s) + 1)))
	copy(unsafe.Slice((*byte)(unsafe.Pointer(p)), len(s)), s)
	return p
}

func encodeMetadata(md [][2]string) *C.char {
	var b []byte
	b = binary.LittleEndian.AppendUint32(b, uint32(len(md)))
	for _, kv := range md {
		for _, s := range kv {
			b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
			b = append(b, s...)
		}
	}
	p := (*C.char)(C.s0_h_calloc(C.size_t(len(b))))
	copy(unsafe.Slice((*byte)(unsafe.Pointer(p)), len(b)), b)
	return p
}

func priv(nchild int, child unsafe.Pointer, dict unsafe.Pointer, top bool) unsafe.Pointer {
	p := (*C.s0_h_priv)(C.s0_h_calloc(C.sizeof_s0_h_priv))
	p.nchild = C.int64_t(nchild)
	p.child = (*unsafe.Pointer)(child)
	p.dict = dict
	if top {
		p.top = 1
	}
	return unsafe.Pointer(p)
}

func buildSchema(h *HSchema, top bool) *C.struct_ArrowSchema {
	s := (*C.struct_ArrowSchema)(C.s0_h_calloc(C.sizeof_struct_ArrowSchema))
	if !h.NoFormat {
		s.format = cstr(h.Format)
	}
	s.name = cstr(h.Name)
	if h.RawMetadata != nil {
		p := (*C.char)(C.s0_h_calloc(C.size_t(max(len(h.RawMetadata), 1))))
		copy(unsafe.Slice((*byte)(unsafe.Pointer(p)), len(h.RawMetadata)), h.RawMetadata)
		s.metadata = p
	} else if h.Metadata != nil {
		s.metadata = encodeMetadata(h.Metadata)
	}
	s.flags = C.int64_t(h.Flags)
	s.n_children = C.int64_t(h.NChildren)
	n := slots(h.NChildren, len(h.Children))
	var kids unsafe.Pointer
	if !h.NoChildren && n > 0 {
		kids = C.s0_h_calloc(C.size_t(n) * C.size_t(unsafe.Sizeof(uintptr(0))))
		ks := unsafe.Slice((**C.struct_ArrowSchema)(kids), n)
		for i, c := range h.Children {
			if c != nil {
				ks[i] = buildSchema(c, false)
			}
		}
		s.children = (**C.struct_ArrowSchema)(kids)
	}
	if h.Dictionary != nil {
		s.dictionary = buildSchema(h.Dictionary, false)
	}
	nk := 0
	if kids != nil {
		nk = len(h.Children)
	}
	s.private_data = priv(nk, kids, unsafe.Pointer(s.dictionary), top)
	if !h.Released {
		C.s0_h_set_schema_release(s)
	}
	return s
}

func buildArray(h *HArray, top bool) *C.struct_ArrowArray {
	a := (*C.struct_ArrowArray)(C.s0_h_calloc(C.sizeof_struct_ArrowArray))
	a.length, a.null_count, a.offset = C.int64_t(h.Length), C.int64_t(h.NullCount), C.int64_t(h.Offset)
	a.n_buffers, a.n_children = C.int64_t(h.NBuffers), C.int64_t(h.NChildren)
	if nb := slots(h.NBuffers, len(h.Buffers)); !h.NoBuffers && nb > 0 {
		bufs := C.s0_h_calloc(C.size_t(nb) * C.size_t(unsafe.Sizeof(uintptr(0))))
		bs := unsafe.Slice((*unsafe.Pointer)(bufs), nb)
		for i, ok := range h.Buffers {
			if ok {
				bs[i] = C.s0_h_calloc(BufSize)
			}
		}
		a.buffers = (*unsafe.Pointer)(bufs)
	}
	n := slots(h.NChildren, len(h.Children))
	var kids unsafe.Pointer
	if !h.NoChildren && n > 0 {
		kids = C.s0_h_calloc(C.size_t(n) * C.size_t(unsafe.Sizeof(uintptr(0))))
		ks := unsafe.Slice((**C.struct_ArrowArray)(kids), n)
		for i, c := range h.Children {
			if c != nil {
				ks[i] = buildArray(c, false)
			}
		}
		a.children = (**C.struct_ArrowArray)(kids)
	}
	if h.Dictionary != nil {
		a.dictionary = buildArray(h.Dictionary, false)
	}
	nk := 0
	if kids != nil {
		nk = len(h.Children)
	}
	a.private_data = priv(nk, kids, unsafe.Pointer(a.dictionary), top)
	if !h.Released {
		C.s0_h_set_array_release(a)
	}
	return a
}

// BuildSchema builds h in C memory (owned by the builder until FreeAll).
func BuildSchema(h *HSchema) *cdata.CArrowSchema {
	return (*cdata.CArrowSchema)(unsafe.Pointer(buildSchema(h, true)))
}

// BuildArray builds h in C memory (owned by the builder until FreeAll).
func BuildArray(h *HArray) *cdata.CArrowArray {
	return (*cdata.CArrowArray)(unsafe.Pointer(buildArray(h, true)))
}

// Releases is the number of release calls on top-level built structs since
// the last FreeAll.
func Releases() int { return int(C.s0_h_release_count()) }

// FreeAll frees everything built since the last FreeAll. Not safe for
// concurrent use (nor is the builder).
func FreeAll() { C.s0_h_free_all() }

// HalfStream returns a stream (built, freed by FreeAll) with a release
// callback and NULL get_schema and get_next.
func HalfStream() *cdata.CArrowArrayStream {
	return (*cdata.CArrowArrayStream)(unsafe.Pointer(C.s0_h_half_stream()))
}

// PoisonSchema marks s released (release NULL) and points its other
// pointers at an address that faults when read.
func PoisonSchema(s *cdata.CArrowSchema) {
	C.s0_h_poison_schema((*C.struct_ArrowSchema)(unsafe.Pointer(s)))
}

// PoisonArray is PoisonSchema for an array.
func PoisonArray(a *cdata.CArrowArray) {
	C.s0_h_poison_array((*C.struct_ArrowArray)(unsafe.Pointer(a)))
}
