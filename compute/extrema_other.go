//go:build !amd64 || noasm

package compute

// extremaAsm: this build has no assembly; the Go folds stay.
func extremaAsm() {}
