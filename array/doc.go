// Package array holds stride0's N-dimensional array: a dtype, a shape, strides
// and an offset counted in elements, and a reference-counted Arrow
// *memory.Buffer that holds the elements.
//
// An Array is a header over memory it does not own alone. Many headers (views,
// see package view) may share one buffer; each header holds one reference to it
// and gives it back on Release. A stride of 0 repeats one element along an
// axis: that is how a broadcast costs nothing until its result is needed.
//
// Layout facts:
//
//   - Strides and the offset are in elements, not bytes (arrow/tensor uses
//     bytes; package arrowio converts).
//   - Rank 0 (a scalar, shape []) and zero-size dimensions are valid
//     everywhere. Element counts are checked for overflow.
//   - Booleans take one byte per element (0 or 1); they are bit-packed only at
//     the Arrow boundary.
//   - An optional validity mask (one byte per element, 1 = valid) lives in a
//     second buffer addressed with the same offset and strides as the data, so
//     every view of the data is also a view of its mask. Null slots hold zero.
//   - An array in which two indices reach one element is read-only: a write
//     would land on that element more than once. A broadcast (a stride-0
//     axis longer than 1) is one; a view whose strides fold onto themselves
//     (shape [3 3], strides [1 1]) is another. Writes through it return
//     ErrReadOnly. ReadOnly is decided once, when the header is made.
//
// Memory (one story for every constructor and every evaluation):
//
//   - Buffers come from the allocator the caller names, or DefaultAllocator
//     (a PageAllocator) when it names none: Go heap memory, reused after
//     Release (small buffers by size class, large ones by size for a short
//     while, see SetReuse).
//   - Release is the deterministic path. An array dropped without Release is
//     reclaimed after the garbage collector finds its header unreachable (a
//     runtime.AddCleanup on the header gives its buffer references back; a
//     small buffer of a PageAllocator needs none: the collector frees it
//     like any Go memory); views hold their own references, so a buffer
//     goes back to its allocator when no header can reach it, once,
//     whichever path comes last. Releasing twice and using a released array
//     return ErrReleased.
//   - Buffers of 4 MiB and more are given transparent huge pages where the
//     system allows it (see HugePageThreshold, SetHugePages).
//   - Every request is checked before it is made: an element or byte count
//     that overflows, or more than AllocLimit (three quarters of the
//     machine's memory by default) or than the address space left under
//     ulimit -v, returns an *AllocError naming the shape, dtype and bytes.
//   - Values and Data expose the buffer: see Values for what such a slice
//     may outlive. SetMemDebug (or STRIDE0_MEMDEBUG=1) poisons released
//     buffers and lists where unreleased arrays were made (Leaks).
//
// Functions return errors for bad input (nil arrays included) rather than
// panicking, the element accessors At, IsValid, Set and SetNull too: an
// index out of range or of the wrong length is an error wrapping ErrIndex.
package array
