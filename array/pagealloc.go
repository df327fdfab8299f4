package array

import "github.com/apache/arrow/go/v15/arrow/memory"

// DefaultAllocator is where stride0 allocates results when the caller names
// no allocator: a PageAllocator.
var DefaultAllocator memory.Allocator = NewPageAllocator()

// PageAllocatorThreshold is the size in bytes from which PageAllocator maps
// buffers itself.
const PageAllocatorThreshold = 4 << 20

// NewPageAllocator returns an allocator for large arrays. Buffers of at least
// PageAllocatorThreshold bytes are mapped directly from the operating system
// and, on Linux, marked for transparent huge pages (madvise MADV_HUGEPAGE,
// which NumPy also asks for), so that writing a new 64 MiB result takes 32
// page faults instead of 16384; Free unmaps them at once. Smaller buffers
// are recycled by power-of-two size class: a freed buffer (arrays are
// reference counted, so the allocator knows when) is handed out again, up to
// a few per class, so that evaluating a small expression in a loop makes no
// garbage. On other systems large buffers come from the Go heap too.
//
// Buffers are 64-byte aligned, and their contents are zero when handed out.
func NewPageAllocator() memory.Allocator { return newPageAllocator() }
