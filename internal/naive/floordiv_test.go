package naive

import (
	"math"
	"testing"
)

// TestFloorDiv32MatchesNumPy holds FloorDiv32 to NumPy's own float32
// results (bits of x, y and x // y) where they differ from the exactly
// rounded floor(x / y), and FloorDiv and FloorDiv32 to the special cases.
func TestFloorDiv32MatchesNumPy(t *testing.T) {
	cases := [][3]uint32{
		{3456107782, 1095761920, 3424489479}, {1309511554, 1120403456, 1253388942},
		{1275161854, 3223322624, 3410957515}, {3451994979, 1095761920, 3421363402},
		{1314277049, 1088421888, 1291117341}, {0x4de4e372, 0x40e00000, 0x4c82cb1d},
	}
	for _, c := range cases {
		x, y := math.Float32frombits(c[0]), math.Float32frombits(c[1])
		got := FloorDiv32(x, y)
		if math.Float32bits(got) != c[2] {
			t.Errorf("FloorDiv32(%v, %v) = %v, NumPy gives %v", x, y, got, math.Float32frombits(c[2]))
		}
		if exact := float32(FloorDiv(float64(x), float64(y))); exact == got {
			t.Errorf("case %v // %v no longer separates the float32 steps from the exact quotient", x, y)
		}
	}
	inf, nan := math.Inf(1), math.NaN()
	special := []struct{ x, y, want float64 }{
		{7, 2, 3}, {-7, 2, -4}, {7, -2, -4}, {-7, -2, 3},
		{1, 0, inf}, {-1, 0, -inf}, {0, 0, nan}, {inf, 3, nan}, {nan, 3, nan}, {3, nan, nan},
		{3, inf, 0}, {-3, inf, -1}, {3, -inf, -1}, {-3, -inf, 0},
		{0, 5, 0}, {1, -5, -1},
	}
	for _, s := range special {
		for name, got := range map[string]float64{
			"FloorDiv":   FloorDiv(s.x, s.y),
			"FloorDiv32": float64(FloorDiv32(float32(s.x), float32(s.y))),
		} {
			if !(got == s.want || math.IsNaN(got) && math.IsNaN(s.want)) || math.Signbit(got) != math.Signbit(s.want) && !math.IsNaN(got) {
				t.Errorf("%s(%v, %v) = %v, want %v", name, s.x, s.y, got, s.want)
			}
		}
	}
	if r := FloorDiv(math.Copysign(0, -1), 5); !math.Signbit(r) || FloorDiv32(0, -5) != 0 || !math.Signbit(float64(FloorDiv32(0, -5))) {
		t.Errorf("zero quotients lost x/y's sign: %v, %v", r, FloorDiv32(0, -5))
	}
}
