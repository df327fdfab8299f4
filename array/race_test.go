//go:build race

package array_test

const raceEnabled = true
