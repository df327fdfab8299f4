package pqdecode

import (
	"math/rand/v2"
	"testing"
)

// bitPacked encodes vals (each below 2^bw) as one bit-packed run of the
// RLE/bit-packed hybrid (len(vals) a multiple of 8).
func bitPacked(vals []uint32, bw int) []byte {
	groups := len(vals) / 8
	var b []byte
	h := uint64(groups)<<1 | 1
	for h >= 0x80 {
		b = append(b, byte(h)|0x80)
		h >>= 7
	}
	b = append(b, byte(h))
	bits := make([]byte, groups*bw)
	for i, v := range vals {
		for k := 0; k < bw; k++ {
			if v>>k&1 == 1 {
				p := i*bw + k
				bits[p/8] |= 1 << (p % 8)
			}
		}
	}
	return append(b, bits...)
}

// BenchmarkGatherFixed: dictionary indices to int32 values: of 17 bits
// (a dictionary of 10^5 values, db-benchmark's id3 and id6), 7 bits (100:
// id1, id2, id4, id5) and 3 bits (5: v1).
func BenchmarkGatherFixed(b *testing.B) {
	for _, c := range []struct {
		name   string
		dn, bw int
	}{{"17bits", 100_000, 17}, {"7bits", 100, 7}, {"3bits", 5, 3}} {
		b.Run(c.name, func(b *testing.B) { benchGather(b, c.dn, c.bw) })
	}
}

func benchGather(b *testing.B, dn, bw int) {
	const n = 1 << 16
	r := rand.New(rand.NewPCG(1, 2))
	dict := make([]uint32, dn)
	for i := range dict {
		dict[i] = r.Uint32()
	}
	vals := make([]uint32, n)
	for i := range vals {
		vals[i] = uint32(r.IntN(dn))
	}
	enc := bitPacked(vals, bw)
	dst := make([]uint32, n)
	idx := make([]uint32, idxBlock)
	b.SetBytes(n * 4)
	b.ReportAllocs()
	for b.Loop() {
		d := newRLE(enc, bw)
		if err := gatherFixed(dict, dst, &d, idx, nil, 0, n); err != nil {
			b.Fatal(err)
		}
	}
	for i, v := range vals {
		if dst[i] != dict[v] {
			b.Fatalf("row %d: %d, want %d", i, dst[i], dict[v])
		}
	}
}
