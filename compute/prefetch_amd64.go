//go:build amd64 && !noasm

package compute

import "unsafe"

//go:noescape
func prefetchAt(base unsafe.Pointer, size int, idx []uint64)

// PrefetchAt asks the CPU to bring the element of size bytes at
// base + idx[k]*size into cache, for every k: one call for a batch of
// random lookups (a hash table's home slots), whose misses then overlap.
// It is a hint: it never faults, whatever the addresses.
func PrefetchAt(base unsafe.Pointer, size int, idx []uint64) {
	prefetchAt(base, size, idx)
}
