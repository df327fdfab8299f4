//go:build !amd64 || noasm

package compute

import "unsafe"

// compress64 and compress32 do nothing in this build (no assembly): the
// Go loop does every word.
func compress64(dst, src unsafe.Pointer, mask []uint64, room int) (k, words int) { return 0, 0 }

func compress32(dst, src unsafe.Pointer, mask []uint64, room int) (k, words int) { return 0, 0 }
