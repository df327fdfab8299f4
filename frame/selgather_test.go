package frame

import (
	"bytes"
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// randMask is a mask of n rows, each set with probability p (0 and 1 give
// empty and full words).
func randMask(rng *rand.Rand, n int, p float64) ([]uint64, int) {
	m := make([]uint64, maskWords(n))
	kept := 0
	for i := 0; i < n; i++ {
		if rng.Float64() < p {
			m[i/64] |= 1 << (i % 64)
			kept++
		}
	}
	return m, kept
}

func bitOf(bm []byte, i int) uint64 {
	if i/8 >= len(bm) {
		return 0
	}
	return uint64(bm[i/8]>>(i%8)) & 1
}

// TestBitmapWord reads 64 bits at every bit position of random bitmaps of
// 0..40 bytes, against a bit loop (bits past the end are zero).
func TestBitmapWord(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for n := 0; n <= 40; n++ {
		bm := make([]byte, n)
		for i := range bm {
			bm[i] = byte(rng.Uint32())
		}
		for at := 0; at <= 8*n+8; at++ {
			var want uint64
			for k := 0; k < 64; k++ {
				want |= bitOf(bm, at+k) << k
			}
			if got := bitmapWord(bm, at); got != want {
				t.Fatalf("bytes %d at %d: %#x, want %#x", n, at, got, want)
			}
		}
	}
}

// TestGatherKernels checks the masked gathers against loops over the
// rows: values of 1 to 8 bytes, bits, strings and their lengths, for
// 0..130 rows and 5,000, masks empty, sparse, half, dense and full, at
// source offsets and output positions of every remainder; each case is
// written as two gathers side by side at once (the pieces of a
// filterCollect), so the shared words of bitmaps and the strings' edges
// are exercised (and raced, under -race).
func TestGatherKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	sizes := []int{}
	for n := 0; n <= 130; n++ {
		sizes = append(sizes, n)
	}
	sizes = append(sizes, 5000)
	for _, n := range sizes {
		for _, p := range []float64{0, 0.02, 0.5, 0.97, 1} {
			off := rng.IntN(70)
			pos := rng.IntN(130)
			name := fmt.Sprintf("n=%d p=%v off=%d pos=%d", n, p, off, pos)
			// two pieces: rows [0, cut) and [cut, n) of the source
			cut := rng.IntN(n + 1)
			m1, k1 := randMask(rng, cut, p)
			m2, k2 := randMask(rng, n-cut, p)
			kept := k1 + k2
			idx := maskIndices(m1, k1)
			for _, i := range maskIndices(m2, k2) {
				idx = append(idx, i+int64(cut))
			}

			// fixed: 8-byte values (the 1-, 2- and 4-byte ones share the code)
			src := make([]uint64, off+n)
			src8 := make([]uint8, off+n)
			for i := range src {
				src[i] = rng.Uint64()
				src8[i] = uint8(src[i])
			}
			dst := make([]uint64, kept)
			dst8 := make([]uint8, kept)
			gatherMasked(dst[:k1], src[off:off+cut], m1)
			gatherMasked(dst[k1:], src[off+cut:], m2)
			gatherMasked(dst8[:k1], src8[off:off+cut], m1)
			gatherMasked(dst8[k1:], src8[off+cut:], m2)
			for k, i := range idx {
				if dst[k] != src[off+int(i)] || dst8[k] != src8[off+int(i)] {
					t.Fatalf("%s: gatherMasked value %d", name, k)
				}
			}

			// bits, from bit off of a bitmap, to bits pos.. of words
			bm := make([]byte, (off+n+7)/8)
			for i := range bm {
				bm[i] = byte(rng.Uint32())
			}
			out := make([]uint64, maskWords(pos+kept)+1)
			var ones [2]int
			var wg sync.WaitGroup
			wg.Add(2)
			go func() { defer wg.Done(); ones[0] = gatherBits(out, pos, k1, bm, off, m1) }()
			go func() { defer wg.Done(); ones[1] = gatherBits(out, pos+k1, k2, bm, off+cut, m2) }()
			wg.Wait()
			want := 0
			for k, i := range idx {
				b := bitOf(bm, off+int(i))
				want += int(b)
				if out[(pos+k)/64]>>((pos+k)%64)&1 != b {
					t.Fatalf("%s: gatherBits bit %d", name, k)
				}
			}
			if ones[0]+ones[1] != want {
				t.Fatalf("%s: gatherBits counted %d ones, want %d", name, ones[0]+ones[1], want)
			}
			for b := 0; b < len(out)*64; b++ {
				if (b < pos || b >= pos+kept) && out[b/64]>>(b%64)&1 != 0 {
					t.Fatalf("%s: gatherBits set bit %d outside %d..%d", name, b, pos, pos+kept)
				}
			}
			clear(out)
			if got := setBits(out, pos, kept); got != kept {
				t.Fatalf("%s: setBits returned %d", name, got)
			}
			for b := 0; b < len(out)*64; b++ {
				if (b >= pos && b < pos+kept) != (out[b/64]>>(b%64)&1 == 1) {
					t.Fatalf("%s: setBits bit %d", name, b)
				}
			}

			// strings of 0..40 bytes (the 16-byte copies and the long ones)
			offs := make([]int32, off+n+1)
			var data []byte
			for i := 0; i < off+n; i++ {
				offs[i] = int32(len(data))
				l := rng.IntN(12)
				if rng.IntN(5) == 0 {
					l = rng.IntN(41)
				}
				for j := 0; j < l; j++ {
					data = append(data, byte('a'+rng.IntN(26)))
				}
			}
			offs[off+n] = int32(len(data))
			data = data[:len(data):len(data)]
			b1 := maskedBytes(offs[off:off+cut+1], m1)
			b2 := maskedBytes(offs[off+cut:], m2)
			at := rng.IntN(50)
			dOffs := make([]int32, kept)
			dData := make([]byte, at+b1+b2+20)
			for i := range dData {
				dData[i] = '#'
			}
			wg.Add(2)
			go func() {
				defer wg.Done()
				gatherStrings(dOffs[:k1], dData[:at+b1], int32(at), offs[off:off+cut+1], data, m1)
			}()
			go func() {
				defer wg.Done()
				gatherStrings(dOffs[k1:], dData[:at+b1+b2], int32(at+b1), offs[off+cut:], data, m2)
			}()
			wg.Wait()
			var wantData []byte
			for k, i := range idx {
				if int(dOffs[k]) != at+len(wantData) {
					t.Fatalf("%s: gatherStrings offset %d = %d, want %d", name, k, dOffs[k], at+len(wantData))
				}
				wantData = append(wantData, data[offs[off+int(i)]:offs[off+int(i)+1]]...)
			}
			if !bytes.Equal(dData[at:at+b1+b2], wantData) {
				t.Fatalf("%s: gatherStrings bytes %q, want %q", name, dData[at:at+b1+b2], wantData)
			}
			if bytes.Count(dData[:at], []byte{'#'}) != at || bytes.Count(dData[at+b1+b2:], []byte{'#'}) != 20 {
				t.Fatalf("%s: gatherStrings wrote outside its bytes", name)
			}
		}
	}
}

// TestMaskIndices: the positions of a mask's bits, in order.
func TestMaskIndices(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for n := 0; n < 300; n += 7 {
		m, kept := randMask(rng, n, 0.3)
		idx := maskIndices(m, kept)
		if len(idx) != kept {
			t.Fatalf("n=%d: %d indices, want %d", n, len(idx), kept)
		}
		for _, i := range idx {
			if m[i/64]>>(i%64)&1 == 0 {
				t.Fatalf("n=%d: index %d not set", n, i)
			}
		}
		total := 0
		for _, w := range m {
			total += bits.OnesCount64(w)
		}
		if total != kept {
			t.Fatalf("n=%d: randMask miscounted", n)
		}
	}
}

// TestCollectFilterTaken: collectFilter serves a filter (and the
// projection above it) over in-memory records of columns a masked gather
// knows, and declines the rest (a fixed_size_list column, a filter over
// another step, records of different dictionaries), which the general
// path serves.
func TestCollectFilterTaken(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "v", Type: arrow.PrimitiveTypes.Float64},
		{Name: "s", Type: arrow.BinaryTypes.String},
		{Name: "l", Type: arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int32)},
	}, nil)
	rb := arrowarray.NewRecordBuilder(mem, schema)
	defer rb.Release()
	for i := 0; i < 100; i++ {
		rb.Field(0).(*arrowarray.Float64Builder).Append(float64(i))
		rb.Field(1).(*arrowarray.StringBuilder).Append(fmt.Sprint(i))
		lb := rb.Field(2).(*arrowarray.FixedSizeListBuilder)
		lb.Append(true)
		lb.ValueBuilder().(*arrowarray.Int32Builder).AppendValues([]int32{int32(i), -int32(i)}, nil)
	}
	rec := rb.NewRecord()
	defer rec.Release()
	f := FromRecords(rec, rec)
	cfg := makeConfig([]Option{WithAllocator(mem)})
	for _, c := range []struct {
		q    Frame
		want bool
		rows int64
	}{
		{f.Filter("v > 49.5").Select("v", "s"), true, 100},
		{f.Filter("v > 49.5").Select("s"), true, 100},
		{f.Filter("v >= 0").Select("s"), true, 200},
		{f.Filter("v < 0").Select("v"), true, 0},
		{f.Filter("v > 49.5"), false, 0},
		{f.Filter("v > 49.5").Select("l"), false, 0},
		{f.Select("v", "s").Filter("v > 49.5"), false, 0},
		{f.WithColumns(Let("w", "v * 2")).Filter("w > 1").Select("v"), false, 0},
	} {
		tb, ok, err := collectFilter(context.Background(), c.q, cfg)
		if ok != c.want || err != nil {
			t.Fatalf("%v: ok %v err %v, want ok %v", c.q.node().pred, ok, err, c.want)
		}
		if ok {
			if tb.NumRows() != c.rows {
				t.Fatalf("%d rows, want %d", tb.NumRows(), c.rows)
			}
			tb.Release()
		}
	}
}
