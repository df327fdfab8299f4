//go:build !race

package linalg

const raceOn = false
