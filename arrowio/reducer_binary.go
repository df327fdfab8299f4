package arrowio

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/compute"
)

// The encoding of a Reducer's state (MarshalBinary), little-endian:
//
//	"S0RD" 1                  magic and version
//	u64                       FNV-1a of the schema and reductions (the signature)
//	uvarint rows              rows seen
//	uvarint n                 the number of reductions
//	n times:
//	  u8 kind, u8 dtype       the accumulator's kind and the result's dtype
//	  uvarint lanes           elements per row
//	  payload if rows > 0:    lanes values of the kind:
//	    int64, uint64, float64 accumulators: 8 bytes each
//	    bool: 1 byte (0 or 1)
//	    moments: count int64, mean float64, M2 float64
//	    Min, Max: the dtype's bytes (the accumulator array's buffer)
//
// A state of no rows carries no payloads: its size is that of the header.
const reducerMagic = "S0RD\x01"

func (r *Reducer) fingerprint() uint64 {
	h := fnv.New64a()
	h.Write([]byte(r.sig))
	return h.Sum64()
}

// MarshalBinary encodes the Reducer's state: the rows seen and each
// accumulator (about 8 bytes per result element; 24 for Mean, Var and Std,
// which keep count, mean and M2), and a fingerprint of the schema and
// reductions but not the reductions themselves. UnmarshalBinary decodes it
// onto a Reducer made from the same schema and reductions.
func (r *Reducer) MarshalBinary() ([]byte, error) {
	if err := r.check("MarshalBinary"); err != nil {
		return nil, err
	}
	s := r.s
	size := len(reducerMagic) + 8 + 2*binary.MaxVarintLen64
	for _, red := range s.reds {
		size += 2 + binary.MaxVarintLen64
		if s.rows > 0 {
			size += red.src.lanes * red.elemSize()
		}
	}
	out := make([]byte, 0, size)
	out = append(out, reducerMagic...)
	out = binary.LittleEndian.AppendUint64(out, r.fingerprint())
	out = binary.AppendUvarint(out, uint64(s.rows))
	out = binary.AppendUvarint(out, uint64(len(s.reds)))
	for _, red := range s.reds {
		out = append(out, byte(red.kind), byte(red.dtype))
		out = binary.AppendUvarint(out, uint64(red.src.lanes))
		if s.rows == 0 {
			continue
		}
		switch red.kind {
		case accI64:
			for _, v := range red.i64 {
				out = binary.LittleEndian.AppendUint64(out, uint64(v))
			}
		case accU64:
			for _, v := range red.u64 {
				out = binary.LittleEndian.AppendUint64(out, v)
			}
		case accF64:
			for _, v := range red.f64 {
				out = binary.LittleEndian.AppendUint64(out, math.Float64bits(v))
			}
		case accBool:
			for _, v := range red.b {
				if v {
					out = append(out, 1)
				} else {
					out = append(out, 0)
				}
			}
		case accMom:
			for _, m := range red.mom {
				out = binary.LittleEndian.AppendUint64(out, uint64(m.Count))
				out = binary.LittleEndian.AppendUint64(out, math.Float64bits(m.Mean))
				out = binary.LittleEndian.AppendUint64(out, math.Float64bits(m.M2))
			}
		case accArray:
			a := red.acc
			if a == nil {
				return nil, fmt.Errorf("arrowio.Reducer.MarshalBinary %q: %w: no accumulator after %d rows", red.r.Name, ErrInvalid, s.rows)
			}
			if !a.IsContiguous() || a.Offset() != 0 {
				c, err := array.Copy(s.mem, a)
				if err != nil {
					return nil, fmt.Errorf("arrowio.Reducer.MarshalBinary %q: %w", red.r.Name, err)
				}
				a.Release()
				red.acc, a = c, c
			}
			out = append(out, a.Data().Bytes()[:red.src.lanes*red.dtype.Size()]...)
		}
	}
	return out, nil
}

// elemSize is the encoded bytes per element of the accumulator.
func (red *reducer) elemSize() int {
	switch red.kind {
	case accBool:
		return 1
	case accMom:
		return 24
	case accArray:
		return red.dtype.Size()
	}
	return 8
}

// decoded is one accumulator decoded by UnmarshalBinary, installed only
// once the whole state has decoded.
type decoded struct {
	i64 []int64
	u64 []uint64
	f64 []float64
	b   []bool
	mom []compute.Moments
	acc *array.Array
}

// UnmarshalBinary replaces the Reducer's state by one MarshalBinary
// encoded, which must come from a Reducer of the same schema and
// reductions (else the error wraps ErrMismatch). Malformed bytes (short,
// trailing, out of range) and states no Add or Merge could build return an
// error wrapping ErrInvalid and leave the Reducer unchanged: a row count
// above 2^62-1, a count (or a sum of bools) above the rows or negative, a
// bool other than 0 or 1, moments whose count is outside [0, rows], whose
// M2 is negative, or which have a mean or M2 for no values or an M2 other
// than 0 (or NaN, for an infinite or NaN value) for one value (see
// momentsOK). Lengths are
// those of the Reducer's own reductions, and a payload must be present in
// full before anything of its size is allocated.
func (r *Reducer) UnmarshalBinary(data []byte) (err error) {
	if err := r.check("UnmarshalBinary"); err != nil {
		return err
	}
	s := r.s
	bad := func(format string, a ...any) error {
		return fmt.Errorf("arrowio.Reducer.UnmarshalBinary: %w: %s (%d bytes)", ErrInvalid, fmt.Sprintf(format, a...), len(data))
	}
	if len(data) < len(reducerMagic)+8 || string(data[:len(reducerMagic)]) != reducerMagic {
		return bad("not a Reducer state (magic %q, version 1)", reducerMagic[:4])
	}
	p := data[len(reducerMagic):]
	if fp := binary.LittleEndian.Uint64(p); fp != r.fingerprint() {
		return fmt.Errorf("arrowio.Reducer.UnmarshalBinary: %w: the state is of another schema or other reductions (fingerprint %016x, want %016x)", ErrMismatch, fp, r.fingerprint())
	}
	p = p[8:]
	uvarint := func(what string) (uint64, error) {
		v, n := binary.Uvarint(p)
		if n <= 0 {
			return 0, bad("truncated or overlong %s", what)
		}
		p = p[n:]
		return v, nil
	}
	rows, err := uvarint("row count")
	if err != nil {
		return err
	}
	if rows > math.MaxInt64/2 {
		return bad("row count %d", rows)
	}
	n, err := uvarint("reduction count")
	if err != nil {
		return err
	}
	if n != uint64(len(s.reds)) {
		return fmt.Errorf("arrowio.Reducer.UnmarshalBinary: %w: %d reductions, want %d", ErrMismatch, n, len(s.reds))
	}
	dec := make([]decoded, len(s.reds))
	defer func() {
		if err != nil {
			for _, d := range dec {
				if d.acc != nil {
					d.acc.Release()
				}
			}
		}
	}()
	for i, red := range s.reds {
		if len(p) < 2 {
			return bad("reduction %d: truncated header", i)
		}
		if accKind(p[0]) != red.kind || array.DType(p[1]) != red.dtype {
			return fmt.Errorf("arrowio.Reducer.UnmarshalBinary: %w: reduction %d (%q): kind %d dtype %d, want %d and %v", ErrMismatch, i, red.r.Name, p[0], p[1], red.kind, red.dtype)
		}
		p = p[2:]
		lanes, err := uvarint("lane count")
		if err != nil {
			return err
		}
		if lanes != uint64(red.src.lanes) {
			return fmt.Errorf("arrowio.Reducer.UnmarshalBinary: %w: reduction %d (%q): %d elements, want %d", ErrMismatch, i, red.r.Name, lanes, red.src.lanes)
		}
		if rows == 0 {
			continue
		}
		es := red.elemSize()
		if uint64(len(p))/uint64(es) < lanes {
			return bad("reduction %d (%q): %d bytes left, want %d elements of %d bytes", i, red.r.Name, len(p), lanes, es)
		}
		body := p[:int(lanes)*es]
		p = p[int(lanes)*es:]
		d := &dec[i]
		switch red.kind {
		case accI64:
			d.i64 = make([]int64, lanes)
			for k := range d.i64 {
				d.i64[k] = int64(binary.LittleEndian.Uint64(body[8*k:]))
				if red.r.Op == Count && (d.i64[k] < 0 || d.i64[k] > int64(rows)) {
					return bad("reduction %d (%q): count %d of %d rows", i, red.r.Name, d.i64[k], rows)
				}
				if red.r.Op == Sum && red.src.node.DType() == array.Bool && (d.i64[k] < 0 || d.i64[k] > int64(rows)) {
					return bad("reduction %d (%q): a sum of bools of %d over %d rows", i, red.r.Name, d.i64[k], rows)
				}
			}
		case accU64:
			d.u64 = make([]uint64, lanes)
			for k := range d.u64 {
				d.u64[k] = binary.LittleEndian.Uint64(body[8*k:])
			}
		case accF64:
			d.f64 = make([]float64, lanes)
			for k := range d.f64 {
				d.f64[k] = math.Float64frombits(binary.LittleEndian.Uint64(body[8*k:]))
			}
		case accBool:
			d.b = make([]bool, lanes)
			for k, c := range body {
				if c > 1 {
					return bad("reduction %d (%q): bool byte %d", i, red.r.Name, c)
				}
				d.b[k] = c == 1
			}
		case accMom:
			d.mom = make([]compute.Moments, lanes)
			for k := range d.mom {
				e := body[24*k:]
				m := compute.Moments{
					Count: int64(binary.LittleEndian.Uint64(e)),
					Mean:  math.Float64frombits(binary.LittleEndian.Uint64(e[8:])),
					M2:    math.Float64frombits(binary.LittleEndian.Uint64(e[16:])),
				}
				if !momentsOK(m, int64(rows)) {
					return bad("reduction %d (%q): moments %+v of %d rows", i, red.r.Name, m, rows)
				}
				d.mom[k] = m
			}
		case accArray:
			if red.dtype == array.Bool {
				for _, c := range body {
					if c > 1 {
						return bad("reduction %d (%q): bool byte %d", i, red.r.Name, c)
					}
				}
			}
			a, err := array.Empty(s.mem, red.dtype, red.src.row...)
			if err != nil {
				return fmt.Errorf("arrowio.Reducer.UnmarshalBinary %q: %w", red.r.Name, err)
			}
			d.acc = a
			copy(a.Data().Bytes()[:len(body)], body)
		}
	}
	if len(p) != 0 {
		return bad("%d trailing bytes", len(p))
	}
	s.reset()
	s.rows = int64(rows)
	for i, red := range s.reds {
		d := dec[i]
		red.i64, red.u64, red.f64, red.b, red.mom, red.acc = d.i64, d.u64, d.f64, d.b, d.mom, d.acc
		if rows > 0 {
			red.alloc() // the source's counts
		}
	}
	return nil
}
