package frame

import (
	"syscall"
	"unsafe"
)

// hugePage is the x86-64 and arm64 huge page size of Linux's transparent
// huge pages.
const hugePage = 2 << 20

// adviseHuge advises MADV_HUGEPAGE for the whole huge pages inside
// [p, p+n): with transparent huge pages set to "madvise" (the common
// default) the kernel then backs them with 2 MiB pages. Errors are
// ignored: the advice is only a hint.
func adviseHuge(p unsafe.Pointer, n uintptr) {
	beg := (uintptr(p) + hugePage - 1) &^ (hugePage - 1)
	end := (uintptr(p) + n) &^ (hugePage - 1)
	if beg >= end {
		return
	}
	_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(p, beg-uintptr(p))), end-beg), syscall.MADV_HUGEPAGE)
}
