//go:build race

package compute_test

// raceOn trims the kernel tests under the race detector, which slows the
// scalar references (math/big) down tenfold: one destination offset per
// length instead of three.
const raceOn = true
