package expr

import (
	"unsafe"

	"github.com/stride0/stride0/array"
)

// transposeBlock is the side of the square tiles transposeCopy moves: 32
// rows of 32 elements of 8 bytes are 8 KiB, so a source tile and a
// destination tile stay in L1 while they are read across and written
// along.
const transposeBlock = 32

// transposeCopy copies src into dst (same dtype and shape, no masks) when
// their last two axes are transposed relative to each other: dst steps by 1
// along the last axis, src along the one before. It copies in square tiles,
// so that both sides are read and written a cache line at a time (the
// fused pass would read src at a stride of a whole row per element), and
// reports whether it applied.
func transposeCopy(dst, src *array.Array) bool {
	if !transposable(src, dst.Strides()) || dst.HasNulls() || src.DType() != dst.DType() || dst.ReadOnly() {
		return false
	}
	r := src.Rank()
	shape := src.Shape()
	ss, ds := src.Strides(), dst.Strides()
	rows, cols := shape[r-2], shape[r-1]
	sz := src.DType().Size()
	sb := unsafe.Pointer(unsafe.SliceData(src.Data().Bytes()))
	db := unsafe.Pointer(unsafe.SliceData(dst.Data().Bytes()))
	outer := shape[:r-2]
	idx := make([]int, r-2)
	so, do := src.Offset(), dst.Offset()
	for {
		s := unsafe.Add(sb, so*sz)
		d := unsafe.Add(db, do*sz)
		switch sz {
		case 1:
			tiles[uint8](d, s, rows, cols, ds[r-2], ss[r-1])
		case 2:
			tiles[uint16](d, s, rows, cols, ds[r-2], ss[r-1])
		case 4:
			tiles[uint32](d, s, rows, cols, ds[r-2], ss[r-1])
		default:
			tiles[uint64](d, s, rows, cols, ds[r-2], ss[r-1])
		}
		if !nextOuter(idx, outer, ss, ds, &so, &do) {
			return true
		}
	}
}

// transposable reports whether src, without nulls, copied into an output
// of strides ds, has its last two axes transposed relative to the output's
// and at least a tile along each.
func transposable(src *array.Array, ds []int) bool {
	r := src.Rank()
	if r < 2 || src.HasNulls() {
		return false
	}
	shape, ss := src.Shape(), src.Strides()
	return ds[r-1] == 1 && ss[r-2] == 1 && ss[r-1] != 1 && shape[r-2] >= transposeBlock && shape[r-1] >= transposeBlock
}

// tiles copies a rows×cols matrix: element (i, j) from s[i + j*sc] to
// d[i*dr + j], one square tile at a time through a buffer: each tile's
// source columns are read whole into it, then its destination rows written
// whole from it. Reading or writing a tile directly would touch 32 lines a
// row apart, which share one set of the L1 cache when the row is a
// multiple of 4 KiB (measured on [1024, 1024] float32: 10 ns per element
// directly, see BenchmarkStructural/transpose for the buffered figure).
func tiles[T uint8 | uint16 | uint32 | uint64](d, s unsafe.Pointer, rows, cols, dr, sc int) {
	const B, BI = transposeBlock, 4 * transposeBlock // BI along the source's contiguous axis
	var buf [B * BI]T
	src := unsafe.Slice((*T)(s), (rows-1)+(cols-1)*sc+1)
	dst := unsafe.Slice((*T)(d), (rows-1)*dr+(cols-1)+1)
	for i0 := 0; i0 < rows; i0 += BI {
		ni := min(BI, rows-i0)
		for j0 := 0; j0 < cols; j0 += B {
			nj := min(B, cols-j0)
			for j := range nj {
				col := src[i0+(j0+j)*sc:]
				copy(buf[j*BI:j*BI+ni], col[:ni])
			}
			for i := range ni {
				row := dst[(i0+i)*dr+j0:]
				row = row[:nj]
				for j := range row {
					row[j] = buf[j*BI+i]
				}
			}
		}
	}
}
