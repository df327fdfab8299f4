package readlimit

import (
	"encoding/binary"
	"math/bits"
)

// BitmapBytes is the number of bytes a bitmap of n bits takes.
func BitmapBytes(n int) int { return (n + 7) / 8 }

// CountZeroBits counts the zero bits off..off+n-1 of the LSB-first bitmap bm.
func CountZeroBits(bm []byte, off, n int) int {
	ones := 0
	i := 0
	for ; i < n && (off+i)&7 != 0; i++ {
		p := off + i
		ones += int(bm[p>>3] >> (p & 7) & 1)
	}
	src := bm[(off+i)>>3:]
	j := 0
	for ; i+64 <= n; i += 64 {
		ones += bits.OnesCount64(binary.LittleEndian.Uint64(src[j:]))
		j += 8
	}
	for ; i+8 <= n; i += 8 {
		ones += bits.OnesCount8(src[j])
		j++
	}
	for ; i < n; i++ {
		p := off + i
		ones += int(bm[p>>3] >> (p & 7) & 1)
	}
	return n - ones
}
