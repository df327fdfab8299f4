//go:build !race

package compute_test

const raceOn = false
