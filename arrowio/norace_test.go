//go:build !race

package arrowio

const raceBuild = false
