//go:build !amd64 || noasm

package compute

// takeFast does nothing in this build (no assembly): TakeBits' Go loop
// gathers every index.
func takeFast[K SortKey](dst, src []K, idx []int64) int { return 0 }
