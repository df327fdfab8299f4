package arrowio

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/stride0/stride0/internal/arrowtest"
)

// BenchmarkValidateRecord: full validation of a batch of 1<<16 rows of a
// dictionary<int8, utf8>, an int32 and a list<int16> column (bytes: the
// columns' buffers).
func BenchmarkValidateRecord(b *testing.B) {
	recs := dictRecords(b, memory.DefaultAllocator, 1, 1<<16)
	defer arrowtest.ReleaseRecords(recs)
	rec := recs[0]
	size := 0
	for _, c := range rec.Columns() {
		for _, buf := range c.Data().Buffers() {
			if buf != nil {
				size += buf.Len()
			}
		}
		for _, ch := range c.Data().Children() {
			for _, buf := range ch.Buffers() {
				if buf != nil {
					size += buf.Len()
				}
			}
		}
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := ValidateRecord(rec); err != nil {
			b.Fatal(err)
		}
	}
}

// randomArrays builds arrays of several layouts with arrow-go's builders
// (nulls, nesting, dictionaries), sliced at random. (Not unions: arrow-go
// v15's DenseUnion.String panics on some slices it makes itself.)
func randomArrays(t testing.TB, mem memory.Allocator, rng *rand.Rand) []arrow.Array {
	n := rng.Intn(40)
	null := func() bool { return rng.Intn(4) == 0 }
	var out []arrow.Array
	build := func(dt arrow.DataType, fill func(b arrowarray.Builder)) {
		b := arrowarray.NewBuilder(mem, dt)
		defer b.Release()
		fill(b)
		a := b.NewArray()
		lo := rng.Intn(a.Len() + 1)
		hi := lo + rng.Intn(a.Len()-lo+1)
		out = append(out, arrowarray.NewSlice(a, int64(lo), int64(hi)))
		a.Release()
	}
	build(arrow.BinaryTypes.String, func(b arrowarray.Builder) {
		sb := b.(*arrowarray.StringBuilder)
		for i := 0; i < n; i++ {
			if null() {
				sb.AppendNull()
			} else {
				sb.Append(strings.Repeat("x", rng.Intn(20)))
			}
		}
	})
	build(arrow.LargeListOf(arrow.PrimitiveTypes.Int16), func(b arrowarray.Builder) {
		lb := b.(*arrowarray.LargeListBuilder)
		vb := lb.ValueBuilder().(*arrowarray.Int16Builder)
		for i := 0; i < n; i++ {
			if null() {
				lb.AppendNull()
				continue
			}
			lb.Append(true)
			for j := rng.Intn(4); j > 0; j-- {
				vb.Append(int16(j))
			}
		}
	})
	st := arrow.StructOf(arrow.Field{Name: "a", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		arrow.Field{Name: "b", Type: arrow.FixedSizeListOf(3, arrow.PrimitiveTypes.Float32), Nullable: true})
	build(st, func(b arrowarray.Builder) {
		sb := b.(*arrowarray.StructBuilder)
		ab := sb.FieldBuilder(0).(*arrowarray.BooleanBuilder)
		fb := sb.FieldBuilder(1).(*arrowarray.FixedSizeListBuilder)
		vb := fb.ValueBuilder().(*arrowarray.Float32Builder)
		for i := 0; i < n; i++ {
			sb.Append(!null())
			ab.Append(rng.Intn(2) == 0)
			fb.Append(true)
			vb.AppendValues([]float32{1, 2, 3}, nil)
		}
	})
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Uint8, ValueType: arrow.BinaryTypes.Binary}
	build(dt, func(b arrowarray.Builder) {
		db := b.(*arrowarray.BinaryDictionaryBuilder)
		for i := 0; i < n; i++ {
			if null() {
				db.AppendNull()
			} else {
				_ = db.Append([]byte{byte(rng.Intn(5))})
			}
		}
	})
	return out
}

// useArray does what callers of a validated array do; it panics if the
// array is not safe to use.
func useArray(a arrow.Array) {
	touchNulls(a, 0)
	_ = a.String()
	for i := 0; i < a.Len(); i++ {
		_ = a.ValueStr(i)
	}
	if d, ok := a.(*arrowarray.Dictionary); ok {
		for i := 0; i < a.Len(); i++ {
			if d.IsValid(i) {
				_ = d.Dictionary().ValueStr(d.GetValueIndex(i))
			}
		}
	}
}

// TestValidateArrayRandom (fixed seed): arrays built by arrow-go validate;
// copies with one random byte of one random buffer changed either fail
// ValidateArray with ErrInvalid or are safe to use (String, ValueStr of
// every element, dictionary lookups, null counts): validation never
// accepts an array that then panics.
func TestValidateArrayRandom(t *testing.T) {
	mem := arrowtest.NewMem(t)
	rng := rand.New(rand.NewSource(9))
	refused, accepted := 0, 0
	for iter := 0; iter < 300; iter++ {
		for _, a := range randomArrays(t, mem, rng) {
			require.NoError(t, ValidateArray(a), "%s", a.DataType())
			require.NotPanics(t, func() { useArray(a) })
			for k := 0; k < 5; k++ {
				c := corruptCopy(a.Data(), rng)
				ca := makeOrNil(c) // arrow-go checks little here, and panics on some
				c.Release()
				if ca == nil {
					refused++
					continue
				}
				if err := ValidateArray(ca); err != nil {
					require.ErrorIs(t, err, ErrInvalid)
					refused++
				} else {
					accepted++
					require.NotPanics(t, func() { useArray(ca) }, "%s accepted after corruption", ca.DataType())
				}
				ca.Release()
			}
			a.Release()
		}
	}
	t.Logf("corrupt copies refused %d, accepted (and safe) %d", refused, accepted)
	assert.Positive(t, refused)
}

// makeOrNil is arrowarray.MakeFromData, nil where it panics.
func makeOrNil(d arrow.ArrayData) (a arrow.Array) {
	defer func() {
		if recover() != nil {
			a = nil
		}
	}()
	return arrowarray.MakeFromData(d)
}

// corruptCopy copies d (buffers of every level included) and changes one
// random byte of one random non-empty buffer somewhere in it.
func corruptCopy(d arrow.ArrayData, rng *rand.Rand) arrow.ArrayData {
	var all [][]byte
	var cp func(d arrow.ArrayData) *arrowarray.Data
	cp = func(d arrow.ArrayData) *arrowarray.Data {
		var bufs []*memory.Buffer
		for _, b := range d.Buffers() {
			if b == nil {
				bufs = append(bufs, nil)
				continue
			}
			raw := append([]byte{}, b.Bytes()...)
			if len(raw) > 0 {
				all = append(all, raw)
			}
			bufs = append(bufs, memory.NewBufferBytes(raw))
		}
		var kids []arrow.ArrayData
		for _, c := range d.Children() {
			kids = append(kids, cp(c))
		}
		nd := arrowarray.NewData(d.DataType(), d.Len(), bufs, kids, d.NullN(), d.Offset())
		for _, k := range kids {
			k.Release()
		}
		if dd := d.Dictionary(); !isNilData(dd) {
			dc := cp(dd)
			nd.SetDictionary(dc)
			dc.Release()
		}
		return nd
	}
	nd := cp(d)
	if len(all) > 0 {
		b := all[rng.Intn(len(all))]
		b[rng.Intn(len(b))] ^= byte(1 + rng.Intn(255))
	}
	return nd
}
