//go:build !amd64 || noasm

package compute

// sumAsm: this build has no assembly; the Go sum kernels stay.
func sumAsm() {}
