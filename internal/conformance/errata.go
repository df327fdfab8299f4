package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// An Erratum is a case of a published file whose expected values contradict
// the reference it names (for kind numpy, NumPy 2 itself). It applies only
// while the file still holds the recorded wrong values: a corrected file
// runs as usual.
type Erratum struct {
	ID     string
	Wrong  string // the file's expected values, compact JSON
	Right  string // the reference's values, compact JSON
	Reason string
}

// Errata are the known mistakes in the shared case files. Each was checked
// against the reference by hand; the project's testdata copies hold the
// corrected cases with a note.
var Errata = []Erratum{
	{
		ID: "np2pub/where/002", Wrong: "[-27,24,-26,-32,24]", Right: "[-27,24,24,-32,24]",
		Reason: "numpy.where(cond, x, y) takes y where cond is false (element 2: cond false, y 24); the file gives x there",
	},
	{
		ID: "np2pub/where/003", Wrong: "[-2.0]", Right: "[1.0]",
		Reason: "numpy.where([False], x, True) is y, True as float32 1.0; the file gives x",
	},
}

// ApplyErratum reports whether an erratum applies to c, and if so returns c
// with the reference's values in place of the file's, and the erratum.
func ApplyErratum(c Case) (Case, *Erratum, bool) {
	for i := range Errata {
		e := &Errata[i]
		if c.ID != e.ID || c.Expected.Values == nil {
			continue
		}
		var got bytes.Buffer
		if json.Compact(&got, c.Expected.Values) != nil || got.String() != e.Wrong {
			return c, nil, false
		}
		c.Expected.Values = json.RawMessage(e.Right)
		return c, e, true
	}
	return c, nil, false
}

// String says what the erratum is.
func (e *Erratum) String() string {
	return fmt.Sprintf("erratum: the file expects %s, the reference gives %s: %s", e.Wrong, e.Right, e.Reason)
}
