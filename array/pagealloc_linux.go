//go:build linux

package array

import (
	"sync"
	"syscall"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

type pageAllocator struct {
	small  recycler
	mu     sync.Mutex
	mapped map[uintptr]int // base address -> mapping length
}

func newPageAllocator() memory.Allocator {
	return &pageAllocator{mapped: map[uintptr]int{}}
}

const hugePage = 2 << 20

func (p *pageAllocator) Allocate(size int) []byte {
	if size < PageAllocatorThreshold {
		return p.small.Allocate(size)
	}
	n := (size + hugePage - 1) &^ (hugePage - 1)
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS)
	if err != nil {
		return p.small.Allocate(size)
	}
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE) // advice only: without THP the pages stay small
	p.mu.Lock()
	p.mapped[uintptr(unsafe.Pointer(&b[0]))] = n
	p.mu.Unlock()
	return b[:size]
}

// allocateUninit: small buffers may be recycled without zeroing; mapped
// ones are new pages, zero anyway.
func (p *pageAllocator) allocateUninit(size int) []byte {
	if size < PageAllocatorThreshold {
		return p.small.allocateUninit(size)
	}
	return p.Allocate(size)
}

func (p *pageAllocator) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) {
		return b[:size]
	}
	nb := p.Allocate(size)
	copy(nb, b)
	p.Free(b)
	return nb
}

func (p *pageAllocator) Free(b []byte) {
	if cap(b) == 0 {
		return
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	p.mu.Lock()
	n, ok := p.mapped[base]
	delete(p.mapped, base)
	p.mu.Unlock()
	if !ok {
		p.small.Free(b)
		return
	}
	_ = syscall.Munmap(unsafe.Slice(unsafe.SliceData(b), n))
}
