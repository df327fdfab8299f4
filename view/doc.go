// Package view makes zero-copy views of arrays: new headers (dtype, shape,
// strides, offset) over the same Arrow buffers, built with (*array.Array).View.
//
//	Broadcast, Numpy (= BroadcastTo), Bidirectional, Explicit, PDPD, NGraph,
//	Multidirectional                   replicate: stride 0 on the new axes
//	Transpose                          permute axes
//	Reshape                            regroup axes, when the strides allow it
//	Slice (with Range, All, Span, From, Reverse, Index)
//	                                   Python slicing, negative steps included
//	ExpandDims, Squeeze                add or remove axes of size 1
//
// # Ownership
//
// Every function takes an array and returns a new *array.Array that the
// caller must Release. The view holds its own references to the data and
// validity buffers, so it stays valid after the input is released, and the
// input stays valid after the view is released. No function modifies its
// input, and none panics: a nil or released input is an error wrapping
// array.ErrNil or array.ErrReleased.
//
// A view shares its elements with its input: writing through one (array.Set,
// or SetNull when the mask already exists) is seen through the other.
// The validity mask is shared in the same way and addressed like the data,
// so a view of an array with nulls has the same nulls; a mask that SetNull
// later adds to one header is that header's alone.
//
// # Broadcast views
//
// A broadcast view repeats elements through stride-0 axes. It costs O(rank)
// bytes of header whatever its size (broadcasting a scalar to a billion
// elements allocates no buffer), and it is read-only: array.Set on a view with
// a stride-0 axis longer than 1 returns array.ErrReadOnly. So does any view
// in which two indices reach one element (array.Array.ReadOnly); slices,
// transposes, reshapes, expands and squeezes of a writable array are never
// such views. array.Copy materializes any view into a new contiguous,
// writable array.
//
// The broadcasting rules themselves (which shapes are compatible, and where
// each input axis lands) live in package broadcast; the functions here apply
// a rule, then Broadcast, which turns the rule's AxisMap into strides. Their
// errors wrap broadcast's *broadcast.Error, so errors.Is(err,
// broadcast.ErrIncompatible) and errors.As with a *broadcast.Error target work.
//
// # Reshape never copies
//
// Reshape returns a view whenever the input's strides allow the new shape (as
// NumPy's reshape does without copying: merged axes must be laid out one
// after the other, split axes always can be), including for transposed,
// sliced and broadcast inputs. When they do not, it returns an error wrapping
// ErrCopyRequired instead of copying; array.Copy first, then Reshape, if a
// copy is acceptable.
//
// # Errors
//
// Errors start with the function ("view.Transpose"), name the shapes and the
// offending axis, and wrap a sentinel: ErrAxis, ErrShape, ErrRange or
// ErrCopyRequired from this package, a broadcast sentinel for a broadcasting
// failure, or an array sentinel.
package view
