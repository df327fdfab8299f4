package frame

import (
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
)

// filterFn is the per-batch function of filter step n, and of the
// projection right above it when pick is not nil (the output's columns
// are then pick's of the input, in schema out): the kept rows' mask is
// found once (selmask.go), and only the columns the output has are
// gathered (selgather.go).
func (n *node) filterFn(pick []int, out *arrow.Schema) batchFn {
	return func(w *worker, rec arrow.Record) (arrow.Record, error) {
		src := rec
		if pick != nil {
			cols := make([]arrow.Array, len(pick))
			for k, i := range pick {
				cols[k] = rec.Column(i)
			}
			src = arrowarray.NewRecord(out, cols, rec.NumRows())
			defer src.Release()
		}
		return n.filterRows(w, rec, src)
	}
}

// filterRows returns the rows of src (rec's columns, or some of them)
// where the predicate, evaluated on rec, is true.
func (n *node) filterRows(w *worker, rec, src arrow.Record) (arrow.Record, error) {
	mask, kept, err := n.tree.keptMask(w, rec)
	if err != nil {
		return nil, fmt.Errorf("frame.Filter %v: %w", n.pred.node, err)
	}
	defer putMask(mask)
	if kept == int(rec.NumRows()) {
		src.Retain()
		return src, nil
	}
	res, err := takeMasked(w.mem, src, mask, kept)
	if err != nil {
		return nil, fmt.Errorf("frame.Filter %v: %w", n.pred.node, err)
	}
	return res, nil
}
