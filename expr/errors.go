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
	// ErrOverflow: a constant that its dtype cannot hold (NumPy's
	// OverflowError: Scalar(300, Int8), a weak Const(300) meeting uint8).
	ErrOverflow = errors.New("value out of range")
)
