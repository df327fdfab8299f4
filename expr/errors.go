package expr

import "errors"

// Sentinel errors; errors from this package wrap one of them or an error of
// packages broadcast and array, and name the op and the shapes involved.
var (
	ErrNilNode  = errors.New("nil node")
	ErrDType    = errors.New("unsupported dtype")
	ErrArgument = errors.New("invalid argument")
	ErrBinding  = errors.New("bad variable binding")
	ErrOutput   = errors.New("bad output array")
)
