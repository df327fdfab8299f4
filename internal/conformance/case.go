package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/stride0/stride0/broadcast"
)

// SchemaPrefix starts the schema name of every case file this package reads.
const SchemaPrefix = "conformance-case-file/"

// File is a case file.
type File struct {
	Path        string
	Schema      string
	Description string
	Cases       []Case
}

// Case is one case of a case file. The fields mirror the JSON fields of the
// format (see ../../../shared/conformance/README.md); Raw keeps the case as
// read, for value checkers and for fields this package does not interpret.
type Case struct {
	ID           string
	Source       string
	SourceTest   string
	SourceCommit string
	Kind         string
	Op           string
	Ops          []string
	Inputs       []Input
	DTypes       []string
	Expected     Expected
	Derived      bool
	Note         string

	// Broadcast ops.
	OpVersions            []int
	Mode                  string
	Axis                  *int // pdpd start axis
	TargetShape           OptShape
	TargetShapeInputShape OptShape
	TargetShapeDType      string
	TargetShapeIsConstant *bool
	AxesMapping           OptInts
	AxesMappingInputShape OptShape
	AxesMappingDType      string
	AxesMappingAbsent     bool
	BroadcastAxes         OptInts // nGraph v0

	// Element-wise ops.
	AutoBroadcast *AutoBroadcast

	// Kind numpy: keyword arguments (axis, keepdims, decimals, ...) as read,
	// and the tolerance in units in the last place (0: exact).
	Args map[string]json.RawMessage
	ULP  int

	// ONNX cases.
	ONNXOpType string
	ONNXOpset  int
	Attributes map[string]json.RawMessage

	Raw json.RawMessage
	// Err says why the case could not be read; Check fails such a case.
	Err error
}

// Input is one input tensor of a case.
type Input struct {
	Name   string
	Shape  broadcast.Shape
	DType  string
	Values json.RawMessage // nil when absent
	// Weak marks a Python scalar of kind numpy (NEP 50): DType is "int",
	// "float" or "bool", Value holds the number and Shape is rank 0.
	Weak  bool
	Value json.RawMessage
}

// Expected is what the case expects.
type Expected struct {
	Error            bool
	Reason           string
	MessageSubstring string
	Shape            OptShape
	DType            string
	Values           json.RawMessage // nil when absent
	BroadcastAxes    OptInts
	Exact            *bool
	Asserted         json.RawMessage
}

// AutoBroadcast is an element-wise op's auto_broadcast attribute.
type AutoBroadcast struct {
	Type string
	Axis *int
}

// OptShape is a shape-valued field: absent, null (a shape of unknown rank)
// or a partial shape.
type OptShape struct {
	Present bool
	Shape   broadcast.Shape
}

// Null reports whether the field is present and null.
func (o OptShape) Null() bool { return o.Present && !o.Shape.RankKnown }

// OptInts is a field holding a list of integers: absent, null or a list.
type OptInts struct {
	Present bool
	Null    bool
	Values  []int
}

// Known reports whether the list is present and not null.
func (o OptInts) Known() bool { return o.Present && !o.Null }

// IsValueCase reports whether the case expects element values.
func (c *Case) IsValueCase() bool { return c.Expected.Values != nil }

// NeedsEvaluation reports whether checking the case needs the library to
// compute elements: it expects values, or it expects an error and gives
// input values (an error that evaluation may be the only one to reveal,
// such as an integer division by zero).
func (c *Case) NeedsEvaluation() bool {
	if c.IsValueCase() {
		return true
	}
	if !c.Expected.Error {
		return false
	}
	for _, in := range c.Inputs {
		if in.Values != nil {
			return true
		}
	}
	return false
}

// Load reads and parses a case file.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f.Path = path
	return f, nil
}

// Parse parses the contents of a case file. Malformed JSON, a schema other
// than conformance-case-file/N or a missing case list is an error; a case
// that cannot be interpreted is kept with Err set; unknown fields are
// ignored.
func Parse(data []byte) (*File, error) {
	var top struct {
		Schema      *string           `json:"schema"`
		Description json.RawMessage   `json:"description"`
		Cases       []json.RawMessage `json:"cases"`
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("conformance: %w", err)
	}
	f := &File{}
	if top.Schema != nil {
		f.Schema = *top.Schema
		if !strings.HasPrefix(f.Schema, SchemaPrefix) {
			return nil, fmt.Errorf("conformance: schema %q is not %s*", f.Schema, SchemaPrefix)
		}
	}
	_ = json.Unmarshal(top.Description, &f.Description)
	if top.Cases == nil {
		return nil, errors.New("conformance: no \"cases\" list")
	}
	f.Cases = make([]Case, len(top.Cases))
	for i, raw := range top.Cases {
		f.Cases[i] = parseCase(raw)
		if f.Cases[i].ID == "" {
			f.Cases[i].ID = fmt.Sprintf("#%d", i)
			if f.Cases[i].Err == nil {
				f.Cases[i].Err = errors.New("case has no id")
			}
		}
	}
	return f, nil
}

// parser reads fields of one JSON object, keeping the first error.
type parser struct {
	obj map[string]json.RawMessage
	err error
}

func (p *parser) fail(key string, err error) {
	if p.err == nil {
		p.err = fmt.Errorf("field %q: %w", key, err)
	}
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

func (p *parser) str(key string) string {
	raw, ok := p.obj[key]
	if !ok || isNull(raw) {
		return ""
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		p.fail(key, err)
	}
	return s
}

func (p *parser) strs(key string) []string {
	raw, ok := p.obj[key]
	if !ok || isNull(raw) {
		return nil
	}
	var s []string
	if err := json.Unmarshal(raw, &s); err != nil {
		p.fail(key, err)
	}
	return s
}

func (p *parser) boolean(key string) bool {
	raw, ok := p.obj[key]
	if !ok || isNull(raw) {
		return false
	}
	var b bool
	if err := json.Unmarshal(raw, &b); err != nil {
		p.fail(key, err)
	}
	return b
}

func (p *parser) optBool(key string) *bool {
	raw, ok := p.obj[key]
	if !ok || isNull(raw) {
		return nil
	}
	b := p.boolean(key)
	return &b
}

func (p *parser) optInt(key string) *int {
	raw, ok := p.obj[key]
	if !ok || isNull(raw) {
		return nil
	}
	n, err := parseInt(raw)
	if err != nil {
		p.fail(key, err)
		return nil
	}
	return &n
}

func (p *parser) ints(key string) OptInts {
	raw, ok := p.obj[key]
	if !ok {
		return OptInts{}
	}
	if isNull(raw) {
		return OptInts{Present: true, Null: true}
	}
	v, err := parseInts(raw)
	if err != nil {
		p.fail(key, err)
	}
	return OptInts{Present: true, Values: v}
}

func (p *parser) shape(key string) OptShape {
	raw, ok := p.obj[key]
	if !ok {
		return OptShape{}
	}
	s, err := parseShape(raw)
	if err != nil {
		p.fail(key, err)
	}
	return OptShape{Present: true, Shape: s}
}

func (p *parser) raw(key string) json.RawMessage {
	raw, ok := p.obj[key]
	if !ok {
		return nil
	}
	return raw
}

// values is a values list as read, nil when absent or null.
func (p *parser) values(key string) json.RawMessage {
	raw := p.raw(key)
	if raw == nil || isNull(raw) {
		return nil
	}
	return raw
}

// object decodes a JSON object into its fields.
func object(raw json.RawMessage) (map[string]json.RawMessage, error) {
	if isNull(raw) {
		return nil, errors.New("null instead of an object")
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, err
	}
	return obj, nil
}

func parseCase(raw json.RawMessage) Case {
	c := Case{Raw: raw}
	obj, err := object(raw)
	if err != nil {
		c.Err = err
		return c
	}
	p := &parser{obj: obj}
	c.ID = p.str("id")
	c.Source = p.str("source")
	c.SourceTest = p.str("source_test")
	c.SourceCommit = p.str("source_commit")
	c.Kind = p.str("kind")
	c.Op = p.str("op")
	c.Ops = p.strs("ops")
	c.DTypes = p.strs("dtypes")
	c.Derived = p.boolean("derived")
	c.Note = p.str("note")
	if raw := p.raw("args"); raw != nil && !isNull(raw) {
		if err := json.Unmarshal(raw, &c.Args); err != nil {
			p.fail("args", err)
		}
	}
	if u := p.optInt("ulp"); u != nil {
		c.ULP = *u
	}
	if vs := p.ints("op_versions"); vs.Known() {
		c.OpVersions = vs.Values
	}
	c.Mode = p.str("mode")
	c.Axis = p.optInt("axis")
	c.TargetShape = p.shape("target_shape")
	c.TargetShapeInputShape = p.shape("target_shape_input_shape")
	c.TargetShapeDType = p.str("target_shape_dtype")
	c.TargetShapeIsConstant = p.optBool("target_shape_is_constant")
	c.AxesMapping = p.ints("axes_mapping")
	c.AxesMappingInputShape = p.shape("axes_mapping_input_shape")
	c.AxesMappingDType = p.str("axes_mapping_dtype")
	c.AxesMappingAbsent = p.boolean("axes_mapping_absent")
	c.BroadcastAxes = p.ints("broadcast_axes")
	c.ONNXOpType = p.str("onnx_op_type")
	if n := p.optInt("onnx_opset"); n != nil {
		c.ONNXOpset = *n
	}
	if raw := p.raw("attributes"); raw != nil && !isNull(raw) {
		if err := json.Unmarshal(raw, &c.Attributes); err != nil {
			p.fail("attributes", err)
		}
	}
	if raw := p.raw("auto_broadcast"); raw != nil && !isNull(raw) {
		if ab, err := object(raw); err != nil {
			p.fail("auto_broadcast", err)
		} else {
			q := &parser{obj: ab}
			c.AutoBroadcast = &AutoBroadcast{Type: q.str("type"), Axis: q.optInt("axis")}
			if q.err != nil {
				p.fail("auto_broadcast", q.err)
			}
		}
	}
	if raw := p.raw("inputs"); raw != nil && !isNull(raw) {
		var list []json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			p.fail("inputs", err)
		}
		for i, r := range list {
			in, err := parseInput(r)
			if err != nil {
				p.fail(fmt.Sprintf("inputs[%d]", i), err)
			}
			c.Inputs = append(c.Inputs, in)
		}
	}
	if raw, ok := obj["expected"]; !ok {
		p.fail("expected", errors.New("missing"))
	} else if e, err := parseExpected(raw); err != nil {
		p.fail("expected", err)
	} else {
		c.Expected = e
	}
	c.Err = p.err
	return c
}

func parseInput(raw json.RawMessage) (Input, error) {
	obj, err := object(raw)
	if err != nil {
		return Input{}, err
	}
	p := &parser{obj: obj}
	in := Input{Name: p.str("name"), DType: p.str("dtype")}
	if in.Weak = p.boolean("weak"); in.Weak {
		if in.Value = p.raw("value"); in.Value == nil {
			p.fail("value", errors.New("missing"))
		}
		in.Shape = broadcast.Shape{RankKnown: true}
		return in, p.err
	}
	in.Values = p.values("values")
	s := p.shape("shape")
	if !s.Present {
		p.fail("shape", errors.New("missing"))
	}
	in.Shape = s.Shape
	return in, p.err
}

func parseExpected(raw json.RawMessage) (Expected, error) {
	obj, err := object(raw)
	if err != nil {
		return Expected{}, err
	}
	p := &parser{obj: obj}
	e := Expected{
		Error:            p.boolean("error"),
		Reason:           p.str("reason"),
		MessageSubstring: p.str("message_substring"),
		Shape:            p.shape("shape"),
		DType:            p.str("dtype"),
		Values:           p.values("values"),
		BroadcastAxes:    p.ints("broadcast_axes"),
		Exact:            p.optBool("exact"),
		Asserted:         p.raw("asserted"),
	}
	if !e.Error && !e.Shape.Present && e.Values == nil {
		p.fail("shape", errors.New("a success needs a shape or values"))
	}
	return e, p.err
}

// parseInt reads a JSON integer.
func parseInt(raw json.RawMessage) (int, error) {
	s := string(bytes.TrimSpace(raw))
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || int64(int(v)) != v {
		return 0, fmt.Errorf("%s is not an integer", s)
	}
	return int(v), nil
}

func parseInts(raw json.RawMessage) ([]int, error) {
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, err
	}
	v := make([]int, len(list))
	for i, r := range list {
		n, err := parseInt(r)
		if err != nil {
			return nil, err
		}
		v[i] = n
	}
	return v, nil
}

// parseShape reads null, or a list of dims: n >= 0, -1 (unknown) or
// [lo, hi] (hi -1: unbounded).
func parseShape(raw json.RawMessage) (broadcast.Shape, error) {
	if isNull(raw) {
		return broadcast.DynamicShape(), nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return broadcast.Shape{}, err
	}
	dims := make([]broadcast.Dim, len(list))
	for i, r := range list {
		d, err := parseDim(r)
		if err != nil {
			return broadcast.Shape{}, fmt.Errorf("dim %d: %w", i, err)
		}
		dims[i] = d
	}
	return broadcast.Shape{Dims: dims, RankKnown: true}, nil
}

func parseDim(raw json.RawMessage) (broadcast.Dim, error) {
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '[' {
		b, err := parseInts(raw)
		if err != nil {
			return broadcast.Dim{}, err
		}
		if len(b) != 2 || b[0] < -1 || b[1] < -1 || b[1] != -1 && b[1] < b[0] {
			return broadcast.Dim{}, fmt.Errorf("invalid interval %s", t)
		}
		return broadcast.IntervalDim(b[0], b[1]), nil
	}
	n, err := parseInt(raw)
	switch {
	case err != nil:
		return broadcast.Dim{}, err
	case n == -1:
		return broadcast.UnknownDim(), nil
	case n < -1:
		return broadcast.Dim{}, fmt.Errorf("invalid dim %d", n)
	}
	return broadcast.StaticDim(n), nil
}
