//go:build !race

package frame

const raceInternal = false
