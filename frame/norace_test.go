//go:build !race

package frame_test

const raceOn = false
