//go:build race

package linalg

// raceOn trims the single-goroutine GEMM sweeps under the race detector,
// which slows their Go reference loops tenfold; the plain `go test` runs
// them whole. The matmul tests that spread work over goroutines are not
// trimmed.
const raceOn = true
