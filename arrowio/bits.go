package arrowio

import (
	"encoding/binary"
	"math/bits"
)

// expand8 maps a bitmap byte to the eight bytes (little-endian in a uint64)
// holding its bits, least significant bit first: 0b101 -> 01 00 01 00 ...
var expand8 = func() (t [256]uint64) {
	for b := range t {
		for k := 0; k < 8; k++ {
			if b>>k&1 != 0 {
				t[b] |= 1 << (8 * k)
			}
		}
	}
	return t
}()

// unpackBits sets dst[i] to bit off+i of the LSB-first bitmap bm (0 or 1),
// for every i < len(dst), in one pass. bm must hold bit off+len(dst)-1.
func unpackBits(dst, bm []byte, off int) {
	n := len(dst)
	i := 0
	for ; i < n && (off+i)&7 != 0; i++ {
		p := off + i
		dst[i] = bm[p>>3] >> (p & 7) & 1
	}
	src := bm[(off+i)>>3:]
	j := 0
	for ; i+8 <= n; i += 8 {
		binary.LittleEndian.PutUint64(dst[i:], expand8[src[j]])
		j++
	}
	for ; i < n; i++ {
		p := off + i
		dst[i] = bm[p>>3] >> (p & 7) & 1
	}
}

// packBits writes bit i of the LSB-first bitmap bm (from bit 0) as src[i] != 0,
// in one pass, zeroes the unused high bits of the last byte, and returns the
// number of zero bits written. len(bm) must be at least (len(src)+7)/8.
func packBits(bm, src []byte) (zeros int) {
	n := len(src)
	ones := 0
	i := 0
	for ; i+8 <= n; i += 8 {
		x := binary.LittleEndian.Uint64(src[i:])
		// 0x80 in every byte that is not zero, then 0x01.
		t := (((x & 0x7f7f7f7f7f7f7f7f) + 0x7f7f7f7f7f7f7f7f) | x) & 0x8080808080808080
		t >>= 7
		b := byte((t * 0x0102040810204080) >> 56)
		bm[i>>3] = b
		ones += bits.OnesCount8(b)
	}
	if i < n {
		var b byte
		for k := 0; i+k < n; k++ {
			if src[i+k] != 0 {
				b |= 1 << k
			}
		}
		bm[i>>3] = b
		ones += bits.OnesCount8(b)
	}
	return n - ones
}
