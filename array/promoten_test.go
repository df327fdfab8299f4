package array

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// TestPromoteTypesNMatchesNumPy checks every ordered triple of dtypes
// against numpy.result_type (testdata/result_type3.txt, written by NumPy),
// and that one and two dtypes promote as PromoteTypes.
func TestPromoteTypesNMatchesNumPy(t *testing.T) {
	f, err := os.Open("testdata/result_type3.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		var d [4]DType
		for i, name := range strings.Fields(line) {
			if d[i], err = ParseDType(name); err != nil {
				t.Fatalf("%q: %v", line, err)
			}
		}
		if got := PromoteTypesN(d[0], d[1], d[2]); got != d[3] {
			t.Errorf("PromoteTypesN(%v, %v, %v) = %v, NumPy %v", d[0], d[1], d[2], got, d[3])
		}
		n++
	}
	if n != 12*12*12 {
		t.Fatalf("%d triples, want %d", n, 12*12*12)
	}
	for a := Bool; a <= Float64; a++ {
		if got := PromoteTypesN(a); got != a {
			t.Errorf("PromoteTypesN(%v) = %v", a, got)
		}
		for b := Bool; b <= Float64; b++ {
			if got, want := PromoteTypesN(a, b), PromoteTypes(a, b); got != want {
				t.Errorf("PromoteTypesN(%v, %v) = %v, PromoteTypes %v", a, b, got, want)
			}
		}
	}
	if got := PromoteTypesN(); got != Invalid {
		t.Errorf("PromoteTypesN() = %v", got)
	}
}
