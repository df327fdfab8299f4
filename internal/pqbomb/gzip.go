package pqbomb

import (
	"bytes"
	"compress/gzip"
)

// gzipZeros is a gzip stream of n zero bytes.
func gzipZeros(n int) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zeros := make([]byte, 1<<20)
	for ; n > 0; n -= len(zeros) {
		zw.Write(zeros[:min(n, len(zeros))])
	}
	zw.Close()
	return buf.Bytes()
}
