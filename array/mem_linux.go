//go:build linux

package array

import (
	"bytes"
	"os"
	"strconv"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// giveBack returns a released buffer's pages to the operating system
// (MADV_DONTNEED: they read as zero if touched again) and drops it. Only
// buffers that nothing else can reach come here.
func giveBack(b []byte) {
	b = b[:cap(b)]
	skip := int((pageSize - base(b)%pageSize) % pageSize)
	n := (len(b) - skip) &^ (pageSize - 1)
	if n > 0 {
		_ = unix.Madvise(b[skip:skip+n], unix.MADV_DONTNEED)
	}
}

const pageSize = 4096

// hugePage is the size of a transparent huge page on amd64 and arm64 (with
// 4 KiB base pages).
const hugePage = 2 << 20

// adviseHuge asks for transparent huge pages (madvise MADV_HUGEPAGE, as NumPy
// does for arrays of 4 MiB and more) over the 2 MiB-aligned interior of b, a
// fresh, zeroed buffer of HugePageThreshold bytes or more. Where the
// runtime already faulted the interior in as small pages (it zeroes reused
// heap memory), those pages are dropped first (MADV_DONTNEED: they read as
// zero, as they were), so that the next write faults in huge pages. With
// transparent huge pages set to "never" the advice changes nothing.
func adviseHuge(b []byte) {
	if len(b) < HugePageThreshold || hugeOff.Load() {
		return
	}
	p := base(b)
	lo := (p + hugePage - 1) &^ (hugePage - 1)
	hi := (p + uintptr(len(b))) &^ (hugePage - 1)
	if hi <= lo {
		return
	}
	in := b[lo-p : hi-p : hi-p]
	if unix.Madvise(in, unix.MADV_HUGEPAGE) != nil {
		return
	}
	var vec [1]byte
	if _, _, e := unix.Syscall(unix.SYS_MINCORE, lo, pageSize, uintptr(unsafe.Pointer(&vec[0]))); e == 0 && vec[0]&1 != 0 {
		_ = unix.Madvise(in, unix.MADV_DONTNEED)
	}
}

// physicalMemory is the memory this process may use: the machine's, or its
// cgroup's limit when that is lower.
func physicalMemory() int64 {
	var si syscall.Sysinfo_t
	total := int64(1) << 34 // 16 GiB when the system will not say
	if syscall.Sysinfo(&si) == nil && si.Totalram > 0 {
		total = int64(si.Totalram) * int64(si.Unit)
	}
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if v, err := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64); err == nil && v > 0 && v < total {
			total = v
		}
	}
	return total
}

// addressSpaceLeft is the virtual memory this process can still map under
// its RLIMIT_AS (ulimit -v), or -1 when there is no such limit.
func addressSpaceLeft() int64 {
	var rl syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_AS, &rl) != nil || rl.Cur == ^uint64(0) || rl.Cur > 1<<62 {
		return -1
	}
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	size := statusKiB(b, "VmSize:")
	if size < 0 {
		return -1
	}
	return int64(rl.Cur) - size*1024
}

// statusKiB reads a "Name:   123 kB" line of /proc/self/status.
func statusKiB(status []byte, name string) int64 {
	i := bytes.Index(status, []byte(name))
	if i < 0 {
		return -1
	}
	line := status[i+len(name):]
	if j := bytes.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	line = bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(line), []byte("kB")))
	v, err := strconv.ParseInt(string(line), 10, 64)
	if err != nil {
		return -1
	}
	return v
}

var mincoreVec = sync.Pool{New: func() any { return new([]byte) }}

// touchPages writes a zero into every page of b that is not mapped yet, on
// up to workers goroutines, so that the kernel faults them in (and zeroes
// them) in parallel. Unmapped pages of fresh memory read as zero, so the
// write changes nothing. It returns whether it touched anything.
func touchPages(b []byte, workers int) bool {
	off := int((pageSize - base(b)%pageSize) % pageSize)
	pages := (len(b) - off) / pageSize
	if pages <= 0 {
		return false
	}
	vp := mincoreVec.Get().(*[]byte)
	defer mincoreVec.Put(vp)
	if cap(*vp) < pages {
		*vp = make([]byte, pages)
	}
	vec := (*vp)[:pages]
	if _, _, e := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&b[off])), uintptr(pages*pageSize), uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		return false
	}
	missing := 0
	for _, v := range vec {
		if v&1 == 0 {
			missing++
		}
	}
	if missing < pages/8 {
		return false // mostly mapped already (memory the runtime reused)
	}
	parallel(workers, pages, func(p0, p1 int) {
		for p := p0; p < p1; p++ {
			if vec[p]&1 == 0 {
				b[off+p*pageSize] = 0
			}
		}
	})
	return true
}
