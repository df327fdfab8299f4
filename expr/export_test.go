package expr

// SetStreamingThreshold lets tests exercise the streaming-store paths on
// small outputs; it returns a function that restores the threshold.
func SetStreamingThreshold(n int) (restore func()) {
	old := ntThreshold
	ntThreshold = n
	return func() { ntThreshold = old }
}

// ClampWorkers exposes the bound on a pass's goroutines (see clampWorkers).
func ClampWorkers(requested, total, units int) int { return clampWorkers(requested, total, units) }

// PassTile exposes the tile a pass over n elements uses (see passTile).
func PassTile(opt, n int) int { return passTile(makeOptions([]Option{WithTileSize(opt)}).tile, n) }

// ScratchBytes exposes a worker's scratch size (see scratchBytes).
func ScratchBytes(nbuf, t, wide int) (int, bool) { return scratchBytes(nbuf, t, wide) }

// CachedLayouts is how many layouts p keeps built passes for.
func CachedLayouts(p *Plan) int { return p.fast.len() }

// LayoutSlots is the bound on CachedLayouts.
const LayoutSlots = layoutSlots

// SetPrefetch turns the software prefetch of streaming operands on or off
// (see prefetchOn); it returns a function that restores the setting.
func SetPrefetch(on bool) (restore func()) {
	old := prefetchOn
	prefetchOn = on
	return func() { prefetchOn = old }
}

// PlanRows2D reports whether p keeps a pass that runs as one row-looped
// kernel call (fastGroup.d), the per-call fast path of W10.
func PlanRows2D(p *Plan) bool {
	for i := range p.fast.slots {
		if fg := p.fast.slots[i].fg.Load(); fg != nil && fg.d != nil {
			return true
		}
	}
	return false
}

// PlanRowKernel reports whether p keeps a one-call pass that runs a
// repeated-row kernel (rows2DCall.row).
func PlanRowKernel(p *Plan) bool {
	for i := range p.fast.slots {
		if fg := p.fast.slots[i].fg.Load(); fg != nil && fg.d != nil && fg.d.row != nil {
			return true
		}
	}
	return false
}
