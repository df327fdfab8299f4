package expr

// SetStreamingThreshold lets tests exercise the streaming-store paths on
// small outputs; it returns a function that restores the threshold.
func SetStreamingThreshold(n int) (restore func()) {
	old := ntThreshold
	ntThreshold = n
	return func() { ntThreshold = old }
}
