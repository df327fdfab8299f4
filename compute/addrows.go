package compute

// AddRowsF32 adds each row of v (row i is v[i*w : i*w+w]) into the
// accumulators of its group (row i of group g = gids[i] into acc[g*w :
// g*w+w], widened to float64) and counts the rows per group in rows: the
// block sums of a per-group mean or sum of a float32 tensor column. Each
// accumulator takes its rows in order, so the sums are those of a Go loop.
// It returns how many rows, from the first, it added: all of them, or
// fewer when it stopped at a group id outside acc or rows, or 0 when the
// build has no kernel for w (AVX2, w a multiple of 4) or v is short; the
// caller adds the rest itself.
func AddRowsF32(acc []float64, rows []int64, gids []int32, v []float32, w int) int {
	if !addRowsAsm || w <= 0 || w%4 != 0 || len(v) < len(gids)*w || len(gids) == 0 {
		return 0
	}
	groups := min(len(acc)/w, len(rows))
	if groups == 0 {
		return 0
	}
	return addRowsF32(acc, rows, gids, v, w, groups)
}
