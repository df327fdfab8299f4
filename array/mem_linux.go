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
