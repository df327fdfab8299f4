package compute

import (
	"math"
	"testing"
	"unsafe"
)

// TestFloorDivFloat32RoundsInFloat32: NumPy's float32 floor division
// (npy_floor_dividef) rounds (x - x%y) / y in float32, so for quotients
// above 2^24 its result is often not float32(floor(x / y)). The cases are
// NumPy's results (bits of x, y and x // y), each one where the two differ;
// all three forms (VV, VS, SV) must give them.
func TestFloorDivFloat32RoundsInFloat32(t *testing.T) {
	cases := [][3]uint32{
		{3456107782, 1095761920, 3424489479}, {1309511554, 1120403456, 1253388942},
		{1275161854, 3223322624, 3410957515}, {3451994979, 1095761920, 3421363402},
		{3439481272, 1095761920, 3407897747}, {3450416909, 1095761920, 3419421162},
		{1314277049, 1088421888, 1291117341}, {3459952246, 1095761920, 3429221127},
		{1292094127, 1088421888, 1268162175}, {3450775124, 1095761920, 3419862042},
		{3451342732, 1088421888, 3427893115}, {1296127884, 1095761920, 1265497497},
		{3458166021, 1088421888, 3434492787}, {1317522129, 1120403456, 1261293670},
		{0x4de4e372, 0x40e00000, 0x4c82cb1d}, // 480013888 // 7: 68573416, not 68573408
	}
	for form := VV; form <= SV; form++ {
		k, err := LookupBinary(FloorDiv, Float32, form)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			x, y := math.Float32frombits(c[0]), math.Float32frombits(c[1])
			var d float32
			k(unsafe.Pointer(&d), unsafe.Pointer(&x), unsafe.Pointer(&y), 1)
			if math.Float32bits(d) != c[2] {
				t.Errorf("form %v: %v // %v = %v, NumPy gives %v", form, x, y, d, math.Float32frombits(c[2]))
			}
		}
	}
}
