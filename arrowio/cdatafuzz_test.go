//go:build cgo

package arrowio

import (
	"encoding/binary"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stride0/stride0/arrowio/internal/cabi"
	"github.com/stride0/stride0/internal/arrowtest"
)

// fuzzBytes hands out the fuzzer's bytes as small decisions (zeros once
// they run out).
type fuzzBytes struct{ b []byte }

func (f *fuzzBytes) next() byte {
	if len(f.b) == 0 {
		return 0
	}
	c := f.b[0]
	f.b = f.b[1:]
	return c
}

// in returns an int in [lo, hi].
func (f *fuzzBytes) in(lo, hi int) int { return lo + int(f.next())%(hi-lo+1) }

func (f *fuzzBytes) chance(k int) bool { return int(f.next())%k == 0 }

// cFormats are format strings to pick from: every kind arrow-go imports,
// with and without the children they need, and malformed ones.
var cFormats = []string{
	"n", "b", "c", "C", "s", "S", "i", "I", "l", "L", "e", "f", "g", "z", "Z", "u", "U", "vz", "vu",
	"tdD", "tdm", "tts", "ttm", "ttu", "ttn", "tDs", "tDm", "tDu", "tDn", "tiM", "tiD", "tin",
	"tss:", "tsu:UTC", "w:4", "w:0", "d:10,2", "d:40,3,256", "d:1", "+l", "+L", "+vl", "+vL",
	"+w:2", "+w:0", "+s", "+m", "+r", "+ud:0,1", "+us:3", "+us:", "",
	"+", "+v", "+u", "tss", "w", "d", "+w", "+ud", "w:-1", "+w:-2", "w:x", "?", "+x", "ttx",
}

// fuzzSchema builds a schema tree description from the fuzzer's bytes.
func fuzzSchema(f *fuzzBytes, depth int) *cabi.HSchema {
	h := &cabi.HSchema{Name: "f" + strconv.Itoa(depth)}
	if c := f.next(); c&0x80 != 0 {
		var sb strings.Builder // raw bytes
		for i := 0; i < int(c&7); i++ {
			if b := f.next(); b != 0 {
				sb.WriteByte(b)
			}
		}
		h.Format = sb.String()
	} else {
		h.Format = cFormats[int(c)%len(cFormats)]
	}
	// Fixed-size binaries wider than the test buffers could hold are not
	// built (no consumer can tell a buffer's size).
	if w, err := strconv.Atoi(strings.TrimPrefix(h.Format, "w:")); err == nil && strings.HasPrefix(h.Format, "w:") && w > 256 {
		h.Format = "w:256"
	}
	h.NoFormat = f.chance(40)
	h.Released = f.chance(40)
	h.Flags = int64(f.in(0, 7))
	if depth < 3 {
		k := f.in(0, 3)
		for i := 0; i < k; i++ {
			if f.chance(20) {
				h.Children = append(h.Children, nil)
			} else {
				h.Children = append(h.Children, fuzzSchema(f, depth+1))
			}
		}
		h.NChildren = int64(k)
		if f.chance(8) {
			h.NChildren = int64(f.in(-1, 4))
		}
		h.NoChildren = f.chance(40)
		if f.chance(6) {
			h.Dictionary = fuzzSchema(f, depth+1)
		}
	}
	if f.chance(6) {
		metas := []string{`{"shape":[2]}`, `{"shape":[1,2],"permutation":[1,0]}`, `{"shape":[3]}`, `{}`, `x`, ``}
		h.Metadata = [][2]string{{"ARROW:extension:name", ExtensionName}, {"ARROW:extension:metadata", metas[f.in(0, len(metas)-1)]}}
	} else if f.chance(5) {
		h.RawMetadata = fuzzMetadata(f)
	}
	return h
}

// fuzzMetadata builds a metadata blob whose counts and lengths may lie
// (negative, 2^31-1, past the bounds) but, short of a lie the walk refuses,
// stay within the blob: no consumer can tell how long a C blob is, so a
// count or length that points past it into other memory is not fuzzed. The
// blob ends in zeros enough for the pairs its count claims.
func fuzzMetadata(f *fuzzBytes) []byte {
	counts := []int32{0, 1, 2, 3, 4, -1, math.MinInt32, math.MaxInt32, maxCMetadataPairs + 1}
	lies := []int32{-1, math.MinInt32, math.MaxInt32, maxCMetadataBytes + 1}
	n := counts[f.in(0, len(counts)-1)]
	b := binary.LittleEndian.AppendUint32(nil, uint32(n))
	pairs := f.in(0, 4)
	for i := 0; i < pairs; i++ {
		for j := 0; j < 2; j++ {
			s := strings.Repeat("k", f.in(0, 9))
			l := int32(len(s))
			if f.chance(6) {
				l = lies[f.in(0, len(lies)-1)]
			}
			b = binary.LittleEndian.AppendUint32(b, uint32(l))
			b = append(b, s...)
		}
	}
	return append(b, make([]byte, 8*4)...)
}

// fuzzArray builds an array tree description, shaped like s most of the
// time (so that imports get past the first checks) and otherwise not.
func fuzzArray(f *fuzzBytes, s *cabi.HSchema, depth int) *cabi.HArray {
	h := &cabi.HArray{
		Length:    int64(f.in(0, 64)),
		Offset:    int64(f.in(0, 64)),
		NullCount: int64(f.in(-1, 3)),
	}
	if f.chance(16) {
		h.Length = int64(f.in(-2, 0))
	}
	if f.chance(16) {
		h.Offset = int64(f.in(-2, 0))
	}
	nb := f.in(0, 4)
	for i := 0; i < nb; i++ {
		h.Buffers = append(h.Buffers, !f.chance(5))
	}
	h.NBuffers = int64(nb)
	if f.chance(8) {
		h.NBuffers = int64(f.in(-1, 5))
	}
	h.NoBuffers = f.chance(40)
	h.Released = f.chance(40)
	var kids []*cabi.HSchema
	if s != nil {
		kids = s.Children
	}
	k := len(kids)
	if f.chance(8) {
		k = f.in(0, 3)
	}
	if depth < 4 {
		for i := 0; i < k; i++ {
			var cs *cabi.HSchema
			if i < len(kids) {
				cs = kids[i]
			}
			if f.chance(30) {
				h.Children = append(h.Children, nil)
			} else {
				h.Children = append(h.Children, fuzzArray(f, cs, depth+1))
			}
		}
		h.NChildren = int64(len(h.Children))
		if f.chance(8) {
			h.NChildren = int64(f.in(-1, 4))
		}
		h.NoChildren = f.chance(40)
		if (s != nil && s.Dictionary != nil) != f.chance(10) {
			var ds *cabi.HSchema
			if s != nil {
				ds = s.Dictionary
			}
			h.Dictionary = fuzzArray(f, ds, depth+1)
		}
	}
	return h
}

// FuzzCDataImport builds C Data Interface structs in C memory from the
// fuzzer's bytes and imports them with ImportCArray, ImportArray and
// ImportCRecordBatch: each returns an array that validates and prints, or
// an error; nothing panics or faults; every live struct is released exactly
// once and nothing stays allocated.
//
// What is fuzzed: format strings (every kind, malformed ones, raw bytes),
// extension metadata, metadata blobs whose counts and lengths lie (see
// fuzzMetadata), flags, released (release NULL) structs at any level,
// NULL format, children and buffers pointers, NULL children and buffers,
// counts that disagree with the type or with the children actually there
// (including negative), lengths, offsets and null counts (including
// negative), dictionaries present or missing, nesting up to 4 levels.
// What is not, because no consumer can check it and a producer that does it
// breaks the specification: pointers to freed or unmapped memory (a
// released struct is recognized by its NULL release only), buffers shorter
// than the type and length imply (every buffer here is 64 KiB, and lengths
// and offsets stay within it: 0..64 elements), buffer contents (all zero),
// metadata in a broken encoding, and cycles between structs.
func FuzzCDataImport(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0x30, 0, 0, 1, 0, 3, 0, 1, 8, 2, 1, 1, 1})
	for i := range cFormats {
		f.Add([]byte{byte(i), 1, 1, 0, 1, 0, 7, 3, 0, 1, 2, 1, 1})
		f.Add([]byte{byte(i), 1, 1, 0, 2, byte(i), 1, 1, 0, 0, byte(i + 1), 1, 1, 0, 0, 5, 0, 0, 2, 1, 1, 1})
	}
	// Hostile metadata at the top: a count of 2^31-1, -1, a key of 2^31-1.
	for _, c := range []byte{7, 5} {
		f.Add([]byte{12, 1, 1, 0, 0, 1, 1, 1, 1, 0, c, 1, 1, 1, 1, 1})
	}
	f.Add([]byte{12, 1, 1, 0, 0, 1, 1, 1, 1, 0, 1, 1, 1, 0, 2, 1, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		defer cabi.FreeAll()
		mem := arrowtest.NewMem(t)
		fb := &fuzzBytes{b: data}
		hs := fuzzSchema(fb, 0)
		ha := fuzzArray(fb, hs, 0)
		live := 0
		if !hs.Released {
			live++
		}
		if !ha.Released {
			live++
		}
		var errs [3]error
		func() {
			_, a, err := ImportCArray(cabi.BuildArray(ha), cabi.BuildSchema(hs))
			if errs[0] = err; err == nil {
				if verr := ValidateArray(a); verr != nil {
					t.Errorf("ImportCArray returned an invalid array: %v", verr)
				}
				printArray(a)
				a.Release()
			}
			arr, err := ImportArray(mem, cabi.BuildArray(ha), cabi.BuildSchema(hs))
			if errs[1] = err; err == nil {
				_ = arr.String() // a stride0 array
				arr.Release()
			}
			rec, err := ImportCRecordBatch(cabi.BuildArray(ha), cabi.BuildSchema(hs))
			if errs[2] = err; err == nil {
				if verr := ValidateRecord(rec); verr != nil {
					t.Errorf("ImportCRecordBatch returned an invalid batch: %v", verr)
				}
				for _, c := range rec.Columns() {
					printArray(c)
				}
				rec.Release()
			}
		}()
		if got := cabi.Releases(); got != 3*live {
			t.Fatalf("%d release calls for %d live structs imported 3 times (errors %v)", got, live, errs)
		}
	})
}
