//go:build !amd64 || noasm

package compute

// registerClassify: this build has no assembly; the Go loops stay.
func registerClassify() {}
