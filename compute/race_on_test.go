//go:build race

package compute

// raceEnabled tells tests built with -race, where sweeps run far slower.
const raceEnabled = true
