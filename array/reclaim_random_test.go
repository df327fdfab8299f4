package array_test

import (
	"math/rand"
	"runtime"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
)

// A random mix of arrays and views of every size class, released, dropped
// and read at random: every live header and every slice kept from a dropped
// one keeps its own values (no buffer is handed out twice), and in the end
// everything is given back.
func TestRandomReleaseAndDrop(t *testing.T) {
	mem := memory.NewCheckedAllocator(array.NewPageAllocator())
	rng := rand.New(rand.NewSource(1))
	sizes := []int{1, 10, 1000, 100_000, array.PageAllocatorThreshold / 8, array.PageAllocatorThreshold/8 + 1, 300_000}
	type held struct {
		a  *array.Array
		id float64
	}
	type kept struct {
		s  []float64
		id float64
	}
	var live []held
	var slices []kept
	check := func(h held) {
		vals, err := array.ToSlice[float64](h.a)
		require.NoError(t, err)
		for i, v := range vals {
			if v != h.id {
				t.Fatalf("array %v (id %v): element %d is %v", h.a, h.id, i, v)
			}
		}
	}
	next := 0.0
	for op := 0; op < 3000; op++ {
		switch k := rng.Intn(10); {
		case k < 3 || len(live) == 0: // a new array
			if len(live) > 40 {
				continue
			}
			next++
			a, err := array.Full(mem, next, sizes[rng.Intn(len(sizes))])
			require.NoError(t, err)
			live = append(live, held{a, next})
		case k < 5: // a view of a live one
			h := live[rng.Intn(len(live))]
			n := h.a.Len()
			off := rng.Intn(n)
			v, err := h.a.View([]int{n - off}, []int{1}, off)
			require.NoError(t, err)
			live = append(live, held{v, h.id})
		case k < 7: // released
			i := rng.Intn(len(live))
			live[i].a.Release()
			live = append(live[:i], live[i+1:]...)
		case k < 8: // dropped, perhaps keeping its values
			i := rng.Intn(len(live))
			if rng.Intn(2) == 0 {
				s, err := array.Values[float64](live[i].a)
				require.NoError(t, err)
				slices = append(slices, kept{s[live[i].a.Offset():], live[i].id})
			}
			live = append(live[:i], live[i+1:]...)
		default: // read
			check(live[rng.Intn(len(live))])
		}
		if op%200 == 0 {
			runtime.GC()
		}
	}
	for _, h := range live {
		check(h)
		h.a.Release()
	}
	waitFreed(t, mem)
	for _, k := range slices {
		for i, v := range k.s {
			if v != k.id {
				t.Fatalf("a slice kept from dropped array %v: element %d is %v", k.id, i, v)
			}
		}
	}
}
