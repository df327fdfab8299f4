//go:build !amd64 || noasm

package compute

import "unsafe"

// reverseAsm copies nothing in this build (no assembly): reverseCopy's Go
// loops do it all.
func reverseAsm(dst, src unsafe.Pointer, n, sz int, nt bool) int { return 0 }
