//go:build !cgo

package main

// Without cgo there is no C Data Interface (package arrowio leaves it out).

func corruptBatches() (string, string) { return vSkip, "needs cgo (C Data export)" }

func cImport(which string, released bool) func() (string, string) {
	return func() (string, string) { return vSkip, "needs cgo (C Data Interface)" }
}
