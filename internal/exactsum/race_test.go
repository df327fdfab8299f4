//go:build race

package exactsum

// thin divides the random inputs' count under the race detector (the
// accumulator runs no goroutines; the references, math/big and the
// partials, are tenfold slower there): the plain go test runs them all.
func thin(n int) int { return max(1, n/16) }
