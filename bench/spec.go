// Package bench holds the shared performance workloads of
// ../shared/perf/workloads.json written with stride0's public API, the way a
// user would write them, and the harness that times them (the JSON-lines
// contract of ../shared/perf/README.md). The command bench/cmd/workloads
// runs them for ../shared/perf/run_all.sh; the testing.B benchmarks in this
// package run the same builders.
package bench

import (
	"encoding/json"
	"fmt"
	"os"
)

// Input is one input array of a workload.
type Input struct {
	Name  string `json:"name"`
	Shape []int  `json:"shape"`
	Seed  int64  `json:"seed"`
}

// Workload is one entry of workloads.json.
type Workload struct {
	ID          string           `json:"id"`
	Name        string           `json:"name"`
	DType       string           `json:"dtype"`
	Expr        string           `json:"expr"`
	AxesMapping map[string][]int `json:"axes_mapping"`
	Inputs      []Input          `json:"inputs"`
	OutShape    []int            `json:"out_shape"`
	CallsPerRep int              `json:"calls_per_rep"`
	PerCall     bool             `json:"per_call"`
}

// Spec is workloads.json.
type Spec struct {
	Generator struct {
		Mult     int64   `json:"mult"`
		SeedMult int64   `json:"seed_mult"`
		Modulus  int64   `json:"modulus"`
		Offset   int64   `json:"offset"`
		Scale    float64 `json:"scale"`
	} `json:"generator"`
	Checksum struct {
		StrideLarge    int `json:"stride_large"`
		StrideSmall    int `json:"stride_small"`
		LargeThreshold int `json:"large_threshold"`
	} `json:"checksum"`
	Timing struct {
		Rounds       int `json:"rounds"`
		RepsPerRound int `json:"reps_per_round"`
		Warmup       int `json:"warmup"`
	} `json:"timing"`
	Workloads []Workload `json:"workloads"`
}

// Load reads a workloads.json file.
func Load(path string) (*Spec, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s Spec
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("bench: %s: %w", path, err)
	}
	return &s, nil
}

// Calls is the number of calls per timed repetition (1 unless per_call).
func (w *Workload) Calls() int {
	if w.PerCall && w.CallsPerRep > 0 {
		return w.CallsPerRep
	}
	return 1
}

// Input returns the input called name.
func (w *Workload) Input(name string) (Input, error) {
	for _, in := range w.Inputs {
		if in.Name == name {
			return in, nil
		}
	}
	return Input{}, fmt.Errorf("bench: workload %s has no input %q", w.ID, name)
}

func numel(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

func (s *Spec) k(i int, seed int64) int64 {
	g := s.Generator
	return (int64(i)*g.Mult + seed*g.SeedMult) % g.Modulus
}

// Gen returns the deterministic values of an input (the generator of
// workloads.json), as float64 before conversion to the workload's dtype.
func (s *Spec) Gen(in Input, integer bool) []float64 {
	p := make([]float64, numel(in.Shape))
	for i := range p {
		k := s.k(i, in.Seed) - s.Generator.Offset
		if integer {
			p[i] = float64(k)
		} else {
			p[i] = float64(k) / s.Generator.Scale
		}
	}
	return p
}

// Sum is the checksum pair of workloads.json.
type Sum struct {
	Sum  float64 `json:"sum"`
	WSum float64 `json:"wsum"`
}

// Sum is the checksum of an output given in C order as float64 values.
func (s *Spec) Sum(p []float64) Sum {
	stride := s.Checksum.StrideSmall
	if len(p) >= s.Checksum.LargeThreshold {
		stride = s.Checksum.StrideLarge
	}
	var r Sum
	for _, v := range p {
		r.Sum += v
	}
	for j := 0; j*stride < len(p); j++ {
		r.WSum += p[j*stride] * float64(j%7+1)
	}
	return r
}
