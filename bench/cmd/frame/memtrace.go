package main

import (
	"fmt"
	"os"
	"runtime/metrics"
	"time"
)

// traceMemory prints, every interval until stop is closed, the live heap
// objects' bytes, the heap's total mapped bytes and the resident set
// (MEMTRACE=ms: a tool for finding where a query's peak comes from).
func traceMemory(interval time.Duration, stop <-chan struct{}) {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}, {Name: "/memory/classes/heap/free:bytes"}}
	t0 := time.Now()
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
			metrics.Read(s)
			fmt.Fprintf(os.Stderr, "memtrace %7.3fs objects %5d MiB unused %5d free %5d rss %5d\n", time.Since(t0).Seconds(),
				s[0].Value.Uint64()>>20, s[1].Value.Uint64()>>20, s[2].Value.Uint64()>>20, rssMiB())
		}
	}
}
