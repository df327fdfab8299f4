//go:build !amd64 || noasm

package compute

// registerCastVec: this build has no assembly; the Go casts and loops stay.
func registerCastVec() {}

// registerFoldInt: this build has no assembly; the Go folds stay.
func registerFoldInt() {}

// registerCmpInt: this build has no assembly; the Go comparisons stay.
func registerCmpInt() {}

// registerIntVec: this build has no assembly; the Go loops stay.
func registerIntVec() {}

// registerRemVec: this build has no assembly; the Go loops stay.
func registerRemVec() {}
