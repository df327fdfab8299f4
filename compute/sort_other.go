//go:build !amd64 || noasm

package compute

func scatterWC32(a *wcArgs) { panic("compute: no write-combining scatter in this build") }
func scatterWC64(a *wcArgs) { panic("compute: no write-combining scatter in this build") }

// haveWC: the write-combining scatters run (never in this build).
var haveWC = false
