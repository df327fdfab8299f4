//go:build race

package bench

// raceOn skips the full-size workload checksums under the race detector:
// they take minutes there and check arithmetic, which the plain `go test`
// does; the parallel evaluation they drive is race-tested in package expr.
const raceOn = true
