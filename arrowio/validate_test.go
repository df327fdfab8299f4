package arrowio

import (
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

// BenchmarkValidateRecord: full validation of a batch of 1<<16 rows of a
// dictionary<int8, utf8>, an int32 and a list<int16> column (bytes: the
// columns' buffers).
func BenchmarkValidateRecord(b *testing.B) {
	recs := dictRecords(b, memory.DefaultAllocator, 1, 1<<16)
	defer releaseRecords(recs)
	rec := recs[0]
	size := 0
	for _, c := range rec.Columns() {
		for _, buf := range c.Data().Buffers() {
			if buf != nil {
				size += buf.Len()
			}
		}
		for _, ch := range c.Data().Children() {
			for _, buf := range ch.Buffers() {
				if buf != nil {
					size += buf.Len()
				}
			}
		}
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := ValidateRecord(rec); err != nil {
			b.Fatal(err)
		}
	}
}
