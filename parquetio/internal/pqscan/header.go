package pqscan

import (
	"bytes"
	"errors"
	"fmt"
)

// PageHeader is a page header as ParsePageHeader reads it (the fields a
// decoder needs; the sizes are as the file claims them, unchecked).
type PageHeader struct {
	// Type is the page type: PageData, PageDict or PageDataV2 (others are
	// returned as read).
	Type int32
	// Uncompressed and Compressed are the page's sizes, headers excluded.
	Uncompressed, Compressed int32
	// NumValues counts the page's values and nulls (levels); NumNulls and
	// NumRows are a version 2 page's.
	NumValues, NumNulls, NumRows int32
	// Encoding is the values' encoding; DefEncoding and RepEncoding a
	// version 1 page's level encodings.
	Encoding, DefEncoding, RepEncoding int32
	// DefLen and RepLen are a version 2 page's level byte lengths.
	DefLen, RepLen int32
	// Compressed2 is a version 2 page's is_compressed (true when absent).
	Compressed2 bool
}

// Page types and encodings, as the Parquet format numbers them.
const (
	PageData   = pageData
	PageDict   = pageDict
	PageDataV2 = pageDataV2

	EncPlain         = encPlain
	EncPlainDict     = encPlainDict
	EncRLE           = 3
	EncRLEDictionary = encRLEDictionary
)

// Physical types and codecs, as the Parquet format numbers them.
const (
	TypeBoolean = typeBoolean
	TypeInt32   = typeInt32
	TypeInt64   = typeInt64
	TypeFloat   = typeFloat
	TypeDouble  = typeDouble
	TypeBytes   = typeBytes

	CodecNone   = codecNone
	CodecSnappy = codecSnappy
	CodecGzip   = codecGzip
	CodecZstd   = codecZstd
)

// ParsePageHeader reads the Thrift PageHeader at the start of b with the
// scan's bounded reader and returns it and its length in bytes. A header
// that runs past b fails with an error wrapping ErrInvalid.
func ParsePageHeader(b []byte) (PageHeader, int, error) {
	h, n, err := parseHeader(b)
	if err != nil {
		return PageHeader{}, 0, wrapShort(err)
	}
	return PageHeader{
		Type: h.typ, Uncompressed: h.uncompressed, Compressed: h.compr,
		NumValues: h.numValues, NumNulls: h.numNulls, NumRows: h.numRows,
		Encoding: h.encoding, DefEncoding: h.defEnc, RepEncoding: h.repEnc,
		DefLen: h.defLen, RepLen: h.repLen, Compressed2: h.compressed,
	}, n, nil
}

// wrapShort makes a truncated header an ErrInvalid.
func wrapShort(err error) error {
	var short *errShort
	if errors.As(err, &short) {
		return fmt.Errorf("%w: page header: %w", ErrInvalid, err)
	}
	return err
}

// CheckBody checks the compressed body of a page held in memory against
// out, the bytes it must inflate to, as CheckPages checks the pages it
// walks (snappy's length and ratio, zstd frame content and block sizes,
// gzip's best ratio, an empty page's body), so that a decoder that then
// inflates it into a buffer of out bytes allocates no more than a block
// beyond it. codec is the page's codec (CodecNone: nothing to check).
func CheckBody(codec int32, body []byte, out int64) error {
	if codec == codecNone {
		return nil
	}
	_, err := checkFrame(bytes.NewReader(body), codec, 0, int64(len(body)), out, out == 0, nil)
	return err
}
