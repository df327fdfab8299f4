//go:build race

package arrowio

// raceBuild: the race detector slows the exhaustive corruption tests
// tenfold; they then try a sample.
const raceBuild = true
