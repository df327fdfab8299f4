//go:build !linux

package array

// giveBack drops a released buffer; the Go runtime returns its memory to the
// system in time.
func giveBack(b []byte) {}

// physicalMemory: 16 GiB when the system is not asked.
func physicalMemory() int64 { return 1 << 34 }

// addressSpaceLeft: no limit known.
func addressSpaceLeft() int64 { return -1 }

// touchPages: pages are faulted in by the evaluation itself.
func touchPages(b []byte, workers int) bool { return false }

// adviseHuge: huge pages are left to the system.
func adviseHuge(b []byte) {}
