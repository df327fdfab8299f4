//go:build !cgo

package main

func cMetadataCount() (string, string) { return vSkip, "needs cgo (C Data Interface)" }
func cMetadataKey() (string, string)   { return vSkip, "needs cgo (C Data Interface)" }
