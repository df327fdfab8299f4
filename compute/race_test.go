//go:build race

package compute_test

// raceOn trims the kernel tests under the race detector, which slows the
// scalar references (math/big) down tenfold: one destination offset per
// length instead of three. The kernels run no goroutines of their own, so
// the full sweeps and samples run in the plain `go test`; under -race a
// sixteenth of each is enough to see a data race.
const raceOn = true

// raceThin divides a sample count under the race detector (at least 1).
func raceThin(n int) int { return max(1, n/16) }

// raceStep widens a sweep's stride under the race detector, keeping it odd
// so the sweep still visits every low mantissa bit pattern.
func raceStep(s uint64) uint64 { return s*16 + 1 }
