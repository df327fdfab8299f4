//go:build !linux

package array

import "github.com/apache/arrow/go/v15/arrow/memory"

func newPageAllocator() memory.Allocator { return &recycler{} }
