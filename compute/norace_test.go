//go:build !race

package compute_test

const raceOn = false

// raceThin divides a sample count under the race detector; here it is n.
func raceThin(n int) int { return n }

// raceStep widens a sweep's stride under the race detector; here it is s.
func raceStep(s uint64) uint64 { return s }
