//go:build !amd64 || noasm

package compute

import "unsafe"

// sqDev4 has no assembly in this build.
func sqDev4(bool) (func(acc, x, m unsafe.Pointer, n, stride int), int) { return nil, 0 }
