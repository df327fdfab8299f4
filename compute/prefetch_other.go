//go:build !amd64 || noasm

package compute

import "unsafe"

// PrefetchAt is a no-op in this build (see the amd64 one).
func PrefetchAt(base unsafe.Pointer, size int, idx []uint64) {}
