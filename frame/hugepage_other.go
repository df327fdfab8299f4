//go:build !linux

package frame

import "unsafe"

// adviseHuge does nothing outside Linux.
func adviseHuge(unsafe.Pointer, uintptr) {}
