package frame

import (
	"fmt"
	"math/rand/v2"
	"testing"

	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// BenchmarkInternAll: one string key column of 10^6 rows drawn from k
// distinct db-benchmark-shaped strings ("id0000012345", 12 bytes), as
// q3's id3 at the harness's size (k = 10^5), and longer strings.
func BenchmarkInternAll(b *testing.B) {
	for _, c := range []struct {
		k   int
		fmt string
	}{{100, "id%03d"}, {100_000, "id%010d"}, {1_000_000, "id%010d"}, {100_000, "a-longer-key-%010d"}} {
		b.Run(fmt.Sprintf("k=%d/len=%d", c.k, len(fmt.Sprintf(c.fmt, 1))), func(b *testing.B) {
			const n = 1 << 20
			r := rand.New(rand.NewPCG(1, 2))
			sb := arrowarray.NewStringBuilder(memory.DefaultAllocator)
			for i := 0; i < n; i++ {
				sb.Append(fmt.Sprintf(c.fmt, 1+r.IntN(c.k)))
			}
			x := sb.NewStringArray()
			defer x.Release()
			sb.Release()
			raw := make([]uint64, n)
			s := newInterner()
			internAll(s, raw, x.ValueOffsets(), x.ValueBytes(), keyVals{})
			b.SetBytes(int64(len(x.ValueBytes())))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				internAll(s, raw, x.ValueOffsets(), x.ValueBytes(), keyVals{})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/row")
		})
	}
}
