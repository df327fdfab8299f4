package compute

import (
	"runtime/metrics"
	"testing"
)

// TestScannableGlobals: the kernel tables hold func values, which the
// garbage collector scans in every cycle; a table over every Op and Type
// (chainTable was 3.4 MB) made each cycle, and so each small allocation
// of a program, dearer. This test binary's scannable globals (the runtime,
// testify and this package) must stay under 1 MiB; they were 3.9 MB.
func TestScannableGlobals(t *testing.T) {
	s := []metrics.Sample{{Name: "/gc/scan/globals:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		t.Skip("this Go has no /gc/scan/globals:bytes")
	}
	if got := s[0].Value.Uint64(); got > 1<<20 {
		t.Fatalf("scannable globals: %d bytes, want at most 1 MiB (a pointerful table too large?)", got)
	}
}
