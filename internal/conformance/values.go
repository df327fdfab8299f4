package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Decoders for the "values" lists of value cases (row-major flat lists), for
// ValueChecker implementations. JSON numbers, true/false (1/0), and the
// strings "nan", "inf" and "-inf" are accepted where they make sense.

// Float64s decodes values as float64. Floats in the case files are the
// exact double of the typed value, so converting to float32 is exact.
func Float64s(raw json.RawMessage) ([]float64, error) {
	items, err := items(raw)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(items))
	for i, it := range items {
		switch v := it.(type) {
		case json.Number:
			f, err := strconv.ParseFloat(string(v), 64)
			if err != nil {
				return nil, fmt.Errorf("values[%d]: %w", i, err)
			}
			out[i] = f
		case bool:
			if v {
				out[i] = 1
			}
		case string:
			switch v {
			case "nan":
				out[i] = math.NaN()
			case "inf":
				out[i] = math.Inf(1)
			case "-inf":
				out[i] = math.Inf(-1)
			default:
				return nil, fmt.Errorf("values[%d]: %q is not a number", i, v)
			}
		default:
			return nil, fmt.Errorf("values[%d]: %v is not a number", i, it)
		}
	}
	return out, nil
}

// Int64s decodes integer values exactly (true/false as 1/0).
func Int64s(raw json.RawMessage) ([]int64, error) {
	items, err := items(raw)
	if err != nil {
		return nil, err
	}
	out := make([]int64, len(items))
	for i, it := range items {
		switch v := it.(type) {
		case json.Number:
			n, err := strconv.ParseInt(string(v), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("values[%d]: %w", i, err)
			}
			out[i] = n
		case bool:
			if v {
				out[i] = 1
			}
		default:
			return nil, fmt.Errorf("values[%d]: %v is not an integer", i, it)
		}
	}
	return out, nil
}

// Uint64s decodes unsigned integer values exactly (for u64 beyond int64).
func Uint64s(raw json.RawMessage) ([]uint64, error) {
	items, err := items(raw)
	if err != nil {
		return nil, err
	}
	out := make([]uint64, len(items))
	for i, it := range items {
		v, ok := it.(json.Number)
		if !ok {
			return nil, fmt.Errorf("values[%d]: %v is not an unsigned integer", i, it)
		}
		n, err := strconv.ParseUint(string(v), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("values[%d]: %w", i, err)
		}
		out[i] = n
	}
	return out, nil
}

// Bools decodes boolean values (numbers: non-zero is true).
func Bools(raw json.RawMessage) ([]bool, error) {
	items, err := items(raw)
	if err != nil {
		return nil, err
	}
	out := make([]bool, len(items))
	for i, it := range items {
		switch v := it.(type) {
		case bool:
			out[i] = v
		case json.Number:
			f, err := strconv.ParseFloat(string(v), 64)
			if err != nil {
				return nil, fmt.Errorf("values[%d]: %w", i, err)
			}
			out[i] = f != 0
		default:
			return nil, fmt.Errorf("values[%d]: %v is not a boolean", i, it)
		}
	}
	return out, nil
}

func items(raw json.RawMessage) ([]any, error) {
	if raw == nil {
		return nil, fmt.Errorf("no values")
	}
	var items []any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&items); err != nil {
		return nil, fmt.Errorf("values: %w", err)
	}
	return items, nil
}
