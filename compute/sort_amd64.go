//go:build amd64 && !noasm

package compute

//go:noescape
func scatterWC32(a *wcArgs)

//go:noescape
func scatterWC64(a *wcArgs)

// haveWC: the write-combining scatters run (they need AVX2).
var haveWC = Asm
