//go:build !amd64 || noasm

package compute

// addRowsAsm: this build has no AddRowsF32 kernel.
const addRowsAsm = false

func addRowsF32(acc []float64, rows []int64, gids []int32, v []float32, w, groups int) int { return 0 }
