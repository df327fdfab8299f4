//go:build race

package frame

// raceInternal trims the internal tests' largest loops under the race
// detector, as raceOn does for the external ones (race_test.go).
const raceInternal = true
