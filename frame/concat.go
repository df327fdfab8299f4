package frame

import (
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow/go/v15/arrow"
)

// Concat returns the rows of each frame in turn. The frames must have one
// schema: the same column names and types, in the same order (an error
// names the first column that differs).
func Concat(frames ...Frame) Frame {
	if len(frames) == 0 {
		return Frame{}
	}
	parts := make([]*node, len(frames))
	for i, f := range frames {
		parts[i] = f.node()
		if parts[i].err != nil {
			return failed(fmt.Errorf("frame.Concat: frame %d: %w", i, parts[i].err))
		}
		if i > 0 {
			if err := sameSchema(parts[0].schema, parts[i].schema); err != nil {
				return failed(fmt.Errorf("frame.Concat: frame %d: %w", i, errors.Join(ErrType, err)))
			}
		}
	}
	md := parts[0].schema.Metadata()
	return Frame{&node{kind: stepConcat, schema: arrow.NewSchema(parts[0].schema.Fields(), &md), parts: parts}}
}

// concatBatches streams each part in turn.
type concatBatches struct {
	r     *runner
	parts []*node
	cur   batches
}

func (c *concatBatches) next() (arrow.Record, error) {
	for {
		if c.cur == nil {
			if len(c.parts) == 0 {
				return nil, io.EOF
			}
			b, err := c.r.stream(c.parts[0])
			if err != nil {
				return nil, err
			}
			c.cur, c.parts = b, c.parts[1:]
		}
		rec, err := c.cur.next()
		if errors.Is(err, io.EOF) {
			c.cur.close()
			c.cur = nil
			continue
		}
		return rec, err
	}
}

func (c *concatBatches) close() {
	if c.cur != nil {
		c.cur.close()
		c.cur = nil
	}
}
