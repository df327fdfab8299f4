package frame

import "unsafe"

// hugeAdvise is the size from which makeBig asks for huge pages: a
// group-by of millions of groups writes its slots and states at random,
// and on 4 KiB pages each first touch is a page fault and nearly each
// probe a TLB miss; 2 MiB pages take 512 times fewer of both.
const hugeAdvise = 8 << 20

// makeBig makes a slice of length n and capacity c (c >= n) and, when it
// spans hugeAdvise bytes or more, advises the kernel to back it with huge
// pages (adviseHuge; linux only, a hint the kernel may ignore). The
// memory is the Go heap's as any slice's: collected when dropped.
func makeBig[T any](n, c int) []T {
	s := make([]T, n, c)
	var z T
	if b := uintptr(c) * unsafe.Sizeof(z); b >= hugeAdvise {
		adviseHuge(unsafe.Pointer(unsafe.SliceData(s)), b)
	}
	return s
}
