//go:build !race

package exactsum

func thin(n int) int { return n }
