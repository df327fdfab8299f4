//go:build !race

package expr_test

const raceOn = false
