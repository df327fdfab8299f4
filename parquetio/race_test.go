//go:build race

package parquetio

// raceEnabled: the race detector is on (the harness files' comparison,
// minutes without it, is skipped).
const raceEnabled = true
