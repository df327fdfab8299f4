//go:build !amd64 || noasm

package compute

// registerWiden: this build has no assembly; the Go casts and loops stay.
func registerWiden() {}
