//go:build !race

package parquetio

const raceEnabled = false
