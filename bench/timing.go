package bench

import (
	"encoding/json"
	"io"
	"runtime"
	"time"
)

// Variant is one way of running a workload: Call is timed; Release
// (untimed, except that a per-call workload's Call frees the previous
// result itself) drops what the last Call allocated; Check checksums the
// last result.
type Variant struct {
	Impl    string
	Variant string
	Threads int
	Call    func() error
	Release func()
	Check   func() (Sum, error)
	Note    string
}

type line struct {
	Impl        string    `json:"impl"`
	Variant     string    `json:"variant"`
	Workload    string    `json:"workload"`
	Round       int       `json:"round"`
	Threads     int       `json:"threads"`
	CallsPerRep int       `json:"calls_per_rep"`
	TimesMs     []float64 `json:"times_ms"`
	Checksum    Sum       `json:"checksum"`
	Note        string    `json:"note,omitempty"`
}

// Run times the variants of one workload like the shared harness: warm-up
// calls, then interleaved repetitions in a rotating order, runtime.GC()
// before each (untimed), one JSON line per variant.
func (s *Spec) Run(w *Workload, vs []Variant, round int, out io.Writer) error {
	calls := w.Calls()
	for _, v := range vs {
		for i := 0; i < s.Timing.Warmup; i++ {
			for c := 0; c < calls; c++ {
				if err := v.Call(); err != nil {
					return err
				}
			}
			if v.Release != nil {
				v.Release()
			}
		}
	}
	times := make([][]float64, len(vs))
	sums := make([]Sum, len(vs))
	reps := s.Timing.RepsPerRound
	for r := 0; r < reps; r++ {
		for q := range vs {
			k := (r + q) % len(vs)
			v := vs[k]
			runtime.GC()
			t0 := time.Now()
			for c := 0; c < calls; c++ {
				if err := v.Call(); err != nil {
					return err
				}
			}
			dt := time.Since(t0)
			times[k] = append(times[k], float64(dt.Nanoseconds())/1e6/float64(calls))
			if r == reps-1 {
				sum, err := v.Check()
				if err != nil {
					return err
				}
				sums[k] = sum
			}
			if v.Release != nil {
				v.Release()
			}
		}
	}
	enc := json.NewEncoder(out)
	for k, v := range vs {
		th := max(v.Threads, 1)
		if err := enc.Encode(line{v.Impl, v.Variant, w.ID, round, th, calls, times[k], sums[k], v.Note}); err != nil {
			return err
		}
	}
	return nil
}
