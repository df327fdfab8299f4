package frame

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
)

// Head keeps the first n rows of each group, in the input's order (after a
// Sort, the group's top n: db-benchmark's "largest two v3 by id6" is
// f.Sort(frame.Desc("v3")).GroupBy("id6").Head(2)). The rows keep all
// columns. It streams: it holds a count per group, and reads its input in
// order, batch after batch.
func (g Grouped) Head(n int64) Frame {
	return g.f.then(func(in *node) (*node, error) {
		if n < 0 {
			return nil, fmt.Errorf("frame.GroupBy.Head: %w: %d rows", ErrArgument, n)
		}
		nd := &node{kind: stepHead, schema: in.schema, limit: n}
		for _, k := range g.keys {
			i, err := columnIndex(in.schema, "frame.GroupBy", k)
			if err != nil {
				return nil, err
			}
			if _, err := keyable(in.schema.Field(i).Type); err != nil {
				return nil, fmt.Errorf("frame.GroupBy %q: %w", k, err)
			}
			nd.keys = append(nd.keys, i)
		}
		return nd, nil
	})
}

func describeHead(n *node) string {
	var keys []string
	for _, k := range n.keys {
		keys = append(keys, n.in.schema.Field(k).Name)
	}
	return fmt.Sprintf("first %d rows per [%s]", n.limit, strings.Join(keys, ", "))
}

// headBatches passes on each group's first rows.
type headBatches struct {
	r     *runner
	n     *node
	in    batches
	seen  map[string]int64
	key   []byte
	alive bool
}

func (h *headBatches) next() (arrow.Record, error) {
	if h.seen == nil {
		h.seen = map[string]int64{}
	}
	for {
		rec, err := h.in.next()
		if err != nil {
			return nil, err
		}
		var idx []int64
		for i := 0; i < int(rec.NumRows()); i++ {
			h.key = h.key[:0]
			for _, k := range h.n.keys {
				h.key = appendKey(h.key, rec.Column(k), i)
			}
			if c := h.seen[string(h.key)]; c < h.n.limit {
				h.seen[string(h.key)] = c + 1
				idx = append(idx, int64(i))
			}
		}
		if len(idx) == int(rec.NumRows()) {
			return rec, nil
		}
		out, err := takeRows(context.Background(), h.r.cfg.mem, rec, idx)
		rec.Release()
		if err != nil {
			return nil, fmt.Errorf("frame.GroupBy.Head: %w", err)
		}
		if out.NumRows() > 0 {
			return out, nil
		}
		out.Release()
	}
}

func (h *headBatches) close() { h.in.close() }
