package frame

import (
	"encoding/json"
	"fmt"
)

// aggJSON is an Agg's JSON form.
type aggJSON struct {
	Op   string  `json:"op"`
	Col  string  `json:"col,omitempty"`
	Col2 string  `json:"col2,omitempty"`
	Ddof int     `json:"ddof,omitempty"`
	Q    float64 `json:"q,omitempty"`
	As   string  `json:"as,omitempty"`
}

// MarshalJSON encodes the aggregate as {"op": "var", "col": "x", "ddof":
// 1, "as": "v"}, so that an Agg travels as text (in a Beam DoFn's fields,
// a config file) and UnmarshalJSON rebuilds it.
func (a Agg) MarshalJSON() ([]byte, error) {
	if a.op < aggCount || a.op > aggCorr {
		return nil, fmt.Errorf("frame.Agg.MarshalJSON: %w: the zero Agg", ErrArgument)
	}
	return json.Marshal(aggJSON{Op: aggNames[a.op], Col: a.col, Col2: a.col2, Ddof: a.ddof, Q: a.q, As: a.name})
}

// UnmarshalJSON rebuilds an aggregate MarshalJSON encoded, with the
// checks of its constructor (a negative ddof, a quantile outside [0, 1]
// are kept as the Agg's error, reported where it is used).
func (a *Agg) UnmarshalJSON(b []byte) error {
	var j aggJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return fmt.Errorf("frame.Agg.UnmarshalJSON: %w: %w", ErrArgument, err)
	}
	var r Agg
	switch j.Op {
	case "count":
		if j.Col == "" {
			r = Count()
		} else {
			r = CountOf(j.Col)
		}
	case "sum":
		r = Sum(j.Col)
	case "mean":
		r = Mean(j.Col)
	case "var":
		r = Var(j.Col, j.Ddof)
	case "std":
		r = Std(j.Col, j.Ddof)
	case "min":
		r = Min(j.Col)
	case "max":
		r = Max(j.Col)
	case "first":
		r = First(j.Col)
	case "last":
		r = Last(j.Col)
	case "any":
		r = Any(j.Col)
	case "all":
		r = All(j.Col)
	case "count_distinct":
		r = CountDistinct(j.Col)
	case "quantile":
		r = Quantile(j.Col, j.Q)
	case "corr":
		r = Corr(j.Col, j.Col2)
	default:
		return fmt.Errorf("frame.Agg.UnmarshalJSON: %w: unknown aggregate %q", ErrArgument, j.Op)
	}
	if j.As != "" {
		r = r.As(j.As)
	}
	*a = r
	return nil
}
