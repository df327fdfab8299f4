// Package cabi is a small C consumer of the Arrow C Data Interface for
// arrowio's tests: it allocates the C structs in C memory, and reads exported
// arrays, schemas and streams with plain C, as a library in another language
// would.
package cabi

/*
#include <stdlib.h>
#include <string.h>
#include "abi.h"

typedef struct {
	char format[64];
	char child_format[64];
	char name[64];
	char ext_name[128];
	char ext_meta[512];
	int64_t length, null_count, offset, n_children, schema_children;
	int64_t child_length, child_offset, child_null_count;
	const void* child_values;
	double sum;
} s0_info;

static void s0_copy(char* dst, size_t cap, const char* src, size_t n) {
	if (n >= cap) n = cap - 1;
	memcpy(dst, src, n);
	dst[n] = 0;
}

// s0_metadata finds key in the C Data Interface metadata encoding: int32
// count, then for each pair int32 length + bytes, twice.
static void s0_metadata(const char* md, const char* key, char* out, size_t cap) {
	out[0] = 0;
	if (md == NULL) return;
	int32_t n;
	memcpy(&n, md, 4); md += 4;
	for (int32_t i = 0; i < n; i++) {
		int32_t kl, vl;
		memcpy(&kl, md, 4); md += 4;
		const char* k = md; md += kl;
		memcpy(&vl, md, 4); md += 4;
		const char* v = md; md += vl;
		if ((size_t)kl == strlen(key) && memcmp(k, key, kl) == 0) {
			s0_copy(out, cap, v, vl);
			return;
		}
	}
}

// s0_describe reads a schema and array; for a list-like array of float64
// ("g") children it sums the valid child values of the array's rows.
static void s0_describe(struct ArrowSchema* s, struct ArrowArray* a, s0_info* out) {
	memset(out, 0, sizeof *out);
	s0_copy(out->format, sizeof out->format, s->format, strlen(s->format));
	if (s->name) s0_copy(out->name, sizeof out->name, s->name, strlen(s->name));
	s0_metadata(s->metadata, "ARROW:extension:name", out->ext_name, sizeof out->ext_name);
	s0_metadata(s->metadata, "ARROW:extension:metadata", out->ext_meta, sizeof out->ext_meta);
	out->schema_children = s->n_children;
	out->length = a->length;
	out->null_count = a->null_count;
	out->offset = a->offset;
	out->n_children = a->n_children;
	if (s->n_children < 1 || a->n_children < 1) return;
	struct ArrowSchema* cs = s->children[0];
	struct ArrowArray* ca = a->children[0];
	s0_copy(out->child_format, sizeof out->child_format, cs->format, strlen(cs->format));
	out->child_length = ca->length;
	out->child_offset = ca->offset;
	out->child_null_count = ca->null_count;
	out->child_values = ca->buffers[1];
	if (strcmp(cs->format, "g") != 0) return;
	const double* v = (const double*)ca->buffers[1];
	const uint8_t* bm = (const uint8_t*)ca->buffers[0];
	for (int64_t i = ca->offset; i < ca->offset + ca->length; i++) {
		if (bm == NULL || (bm[i >> 3] >> (i & 7) & 1)) out->sum += v[i];
	}
}

// s0_drain reads a stream to its end as a C consumer does, counting batches
// and rows, then releases it. It returns the first error code, or 0.
static int s0_drain(struct ArrowArrayStream* st, int64_t* batches, int64_t* rows, char* schema_format) {
	struct ArrowSchema sc;
	memset(&sc, 0, sizeof sc);
	int rc = st->get_schema(st, &sc);
	if (rc != 0) { st->release(st); return rc; }
	s0_copy(schema_format, 64, sc.format, strlen(sc.format));
	sc.release(&sc);
	*batches = 0; *rows = 0;
	for (;;) {
		struct ArrowArray a;
		memset(&a, 0, sizeof a);
		rc = st->get_next(st, &a);
		if (rc != 0) break;
		if (a.release == NULL) break;
		*batches += 1;
		*rows += a.length;
		a.release(&a);
	}
	st->release(st);
	return rc;
}

static void s0_release_schema(struct ArrowSchema* s) { if (s->release) s->release(s); }
static void s0_release_array(struct ArrowArray* a) { if (a->release) a->release(a); }
static int s0_array_released(struct ArrowArray* a) { return a->release == NULL; }
*/
import "C"

import (
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow/cdata"
)

// NewArray returns a zeroed ArrowArray in C memory; free it with Free.
func NewArray() *cdata.CArrowArray {
	return (*cdata.CArrowArray)(C.calloc(1, C.sizeof_struct_ArrowArray))
}

// NewSchema returns a zeroed ArrowSchema in C memory; free it with Free.
func NewSchema() *cdata.CArrowSchema {
	return (*cdata.CArrowSchema)(C.calloc(1, C.sizeof_struct_ArrowSchema))
}

// NewStream returns a zeroed ArrowArrayStream in C memory; free it with Free.
func NewStream() *cdata.CArrowArrayStream {
	return (*cdata.CArrowArrayStream)(C.calloc(1, C.sizeof_struct_ArrowArrayStream))
}

// Free frees a struct from NewArray, NewSchema or NewStream (not what it
// points to: release that first).
func Free[T cdata.CArrowArray | cdata.CArrowSchema | cdata.CArrowArrayStream](p *T) {
	C.free(unsafe.Pointer(p))
}

// ReleaseSchema calls the schema's release callback if it has one.
func ReleaseSchema(s *cdata.CArrowSchema) {
	C.s0_release_schema((*C.struct_ArrowSchema)(unsafe.Pointer(s)))
}

// ReleaseArray calls the array's release callback if it has one.
func ReleaseArray(a *cdata.CArrowArray) {
	C.s0_release_array((*C.struct_ArrowArray)(unsafe.Pointer(a)))
}

// Released reports whether the array has been released (or moved).
func Released(a *cdata.CArrowArray) bool {
	return C.s0_array_released((*C.struct_ArrowArray)(unsafe.Pointer(a))) != 0
}

// Info is what the C consumer read.
type Info struct {
	Format, ChildFormat, Name, ExtName, ExtMeta string
	Length, NullCount, Offset                   int64
	NChildren, SchemaChildren                   int64
	ChildLength, ChildOffset, ChildNullCount    int64
	ChildValues                                 uintptr // address of the child's values buffer
	Sum                                         float64 // valid float64 child values
}

// Describe reads s and a in C.
func Describe(s *cdata.CArrowSchema, a *cdata.CArrowArray) Info {
	var in C.s0_info
	C.s0_describe((*C.struct_ArrowSchema)(unsafe.Pointer(s)), (*C.struct_ArrowArray)(unsafe.Pointer(a)), &in)
	return Info{
		Format: C.GoString(&in.format[0]), ChildFormat: C.GoString(&in.child_format[0]), Name: C.GoString(&in.name[0]),
		ExtName: C.GoString(&in.ext_name[0]), ExtMeta: C.GoString(&in.ext_meta[0]),
		Length: int64(in.length), NullCount: int64(in.null_count), Offset: int64(in.offset),
		NChildren: int64(in.n_children), SchemaChildren: int64(in.schema_children),
		ChildLength: int64(in.child_length), ChildOffset: int64(in.child_offset), ChildNullCount: int64(in.child_null_count),
		ChildValues: uintptr(in.child_values), Sum: float64(in.sum),
	}
}

// Drain reads a stream to its end in C and releases it.
func Drain(st *cdata.CArrowArrayStream) (batches, rows int64, schemaFormat string, rc int) {
	var b, r C.int64_t
	var f [64]C.char
	code := C.s0_drain((*C.struct_ArrowArrayStream)(unsafe.Pointer(st)), &b, &r, &f[0])
	return int64(b), int64(r), C.GoString(&f[0]), int(code)
}
