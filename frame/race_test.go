//go:build race

package frame_test

// raceOn trims the largest comparisons under the race detector (tenfold
// slower): the 10^6-distinct-key table has 10^5 rows there; the run
// without -race keeps 10^6.
const raceOn = true
