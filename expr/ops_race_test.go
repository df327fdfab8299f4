//go:build race

package expr_test

// raceOn: the race detector's sync.Pool drops pooled objects at random, so
// allocation counts are meaningless under it.
const raceOn = true
