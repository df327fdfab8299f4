package array_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/float16"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/internal/half"
)

func f16(vs ...float64) []float16.Num {
	out := make([]float16.Num, len(vs))
	for i, v := range vs {
		out[i] = float16.FromBits(half.FromFloat64(v))
	}
	return out
}

// arange returns 0, 1, ... in dt with the given shape.
func arange(mem memory.Allocator, dt array.DType, shape ...int) (*array.Array, error) {
	n := 1
	for _, d := range shape {
		n *= d
	}
	a, err := array.Arange(mem, dt, 0, float64(n), 1)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	return a.Reshaped(shape...)
}

// transposed is the [3 2] transpose of arange(6) as [2 3] float64.
func transposed(mem memory.Allocator) (*array.Array, error) {
	a, err := arange(mem, array.Float64, 2, 3)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	return a.View([]int{3, 2}, []int{1, 3}, 0)
}

// broadcast is [1.5 -2 3] float32 repeated on two rows by a stride 0.
func broadcast(mem memory.Allocator) (*array.Array, error) {
	a, err := array.FromSlice(mem, []float32{1.5, -2, 3})
	if err != nil {
		return nil, err
	}
	defer a.Release()
	return a.View([]int{2, 3}, []int{0, 1}, 0)
}

// reversed is arange(5) int64 read backwards (a negative stride).
func reversed(mem memory.Allocator) (*array.Array, error) {
	a, err := arange(mem, array.Int64, 5)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	return a.View([]int{5}, []int{-1}, 4)
}

// The expected texts are NumPy 1.24's str() of the same arrays.
var numpyPrints = []struct {
	name string
	make func(mem memory.Allocator) (*array.Array, error)
	want string
}{
	{"fixed", func(mem memory.Allocator) (*array.Array, error) { return array.FromSlice(mem, []float64{1, 2.5, 3}) }, `[1.  2.5 3. ]`},
	{"sci small", func(mem memory.Allocator) (*array.Array, error) { return array.FromSlice(mem, []float64{1e-5, 1.5}) }, `[1.0e-05 1.5e+00]`},
	{"sci ratio", func(mem memory.Allocator) (*array.Array, error) {
		return array.FromSlice(mem, []float64{0.1, 0.25, -3, 1000})
	}, `[ 1.0e-01  2.5e-01 -3.0e+00  1.0e+03]`},
	{"float32 shortest", func(mem memory.Allocator) (*array.Array, error) { return array.FromSlice(mem, []float32{0.1, 1.0 / 3}) }, `[0.1        0.33333334]`},
	{"float16", func(mem memory.Allocator) (*array.Array, error) {
		return array.FromSlice(mem, f16(0.1, 0.2, -1.5, 65504))
	}, `[ 1.00e-01  2.00e-01 -1.50e+00  6.55e+04]`},
	{"float16 subnormal", func(mem memory.Allocator) (*array.Array, error) { return array.FromSlice(mem, f16(6e-8, 1)) }, `[6.e-08 1.e+00]`},
	{"nan inf", func(mem memory.Allocator) (*array.Array, error) {
		return array.FromSlice(mem, []float64{0.1, math.NaN(), math.Inf(-1), 2})
	}, `[ 0.1  nan -inf  2. ]`},
	{"all nan", func(mem memory.Allocator) (*array.Array, error) {
		return array.FromSlice(mem, []float32{float32(math.NaN()), float32(math.Inf(1))})
	}, `[nan inf]`},
	{"large", func(mem memory.Allocator) (*array.Array, error) { return array.FromSlice(mem, []float64{1e20, 1}) }, `[1.e+20 1.e+00]`},
	{"three digit exponent", func(mem memory.Allocator) (*array.Array, error) {
		return array.FromSlice(mem, []float64{math.Copysign(0, -1), 1e-300})
	}, `[-0.e+000  1.e-300]`},
	{"rounds to precision", func(mem memory.Allocator) (*array.Array, error) {
		return array.FromSlice(mem, []float64{0.999999999, 1.5})
	}, `[1.  1.5]`},
	{"eight digits", func(mem memory.Allocator) (*array.Array, error) { return array.FromSlice(mem, []float64{1.0 / 3, 2}) }, `[0.33333333 2.        ]`},
	{"int32 matrix", func(mem memory.Allocator) (*array.Array, error) {
		return array.FromSlice(mem, []int32{1, -20, 300, 4, 5, 6}, 2, 3)
	}, `[[  1 -20 300]
 [  4   5   6]]`},
	{"bool", func(mem memory.Allocator) (*array.Array, error) {
		return array.FromSlice(mem, []bool{true, false, true, true}, 2, 1, 2)
	}, `[[[ True False]]

 [[ True  True]]]`},
	{"uint64", func(mem memory.Allocator) (*array.Array, error) {
		return array.FromSlice(mem, []uint64{math.MaxUint64, 0})
	}, `[18446744073709551615                    0]`},
	{"int8", func(mem memory.Allocator) (*array.Array, error) { return array.FromSlice(mem, []int8{-128, 127, 0}) }, `[-128  127    0]`},
	{"summary 2-D", func(mem memory.Allocator) (*array.Array, error) { return arange(mem, array.Int64, 100, 100) }, `[[   0    1    2 ...   97   98   99]
 [ 100  101  102 ...  197  198  199]
 [ 200  201  202 ...  297  298  299]
 ...
 [9700 9701 9702 ... 9797 9798 9799]
 [9800 9801 9802 ... 9897 9898 9899]
 [9900 9901 9902 ... 9997 9998 9999]]`},
	{"summary 1-D", func(mem memory.Allocator) (*array.Array, error) { return arange(mem, array.Int16, 1001) }, `[   0    1    2 ...  998  999 1000]`},
	{"summary 3-D", func(mem memory.Allocator) (*array.Array, error) { return arange(mem, array.Float32, 10, 10, 11) }, `[[[0.000e+00 1.000e+00 2.000e+00 ... 8.000e+00 9.000e+00 1.000e+01]
  [1.100e+01 1.200e+01 1.300e+01 ... 1.900e+01 2.000e+01 2.100e+01]
  [2.200e+01 2.300e+01 2.400e+01 ... 3.000e+01 3.100e+01 3.200e+01]
  ...
  [7.700e+01 7.800e+01 7.900e+01 ... 8.500e+01 8.600e+01 8.700e+01]
  [8.800e+01 8.900e+01 9.000e+01 ... 9.600e+01 9.700e+01 9.800e+01]
  [9.900e+01 1.000e+02 1.010e+02 ... 1.070e+02 1.080e+02 1.090e+02]]

 [[1.100e+02 1.110e+02 1.120e+02 ... 1.180e+02 1.190e+02 1.200e+02]
  [1.210e+02 1.220e+02 1.230e+02 ... 1.290e+02 1.300e+02 1.310e+02]
  [1.320e+02 1.330e+02 1.340e+02 ... 1.400e+02 1.410e+02 1.420e+02]
  ...
  [1.870e+02 1.880e+02 1.890e+02 ... 1.950e+02 1.960e+02 1.970e+02]
  [1.980e+02 1.990e+02 2.000e+02 ... 2.060e+02 2.070e+02 2.080e+02]
  [2.090e+02 2.100e+02 2.110e+02 ... 2.170e+02 2.180e+02 2.190e+02]]

 [[2.200e+02 2.210e+02 2.220e+02 ... 2.280e+02 2.290e+02 2.300e+02]
  [2.310e+02 2.320e+02 2.330e+02 ... 2.390e+02 2.400e+02 2.410e+02]
  [2.420e+02 2.430e+02 2.440e+02 ... 2.500e+02 2.510e+02 2.520e+02]
  ...
  [2.970e+02 2.980e+02 2.990e+02 ... 3.050e+02 3.060e+02 3.070e+02]
  [3.080e+02 3.090e+02 3.100e+02 ... 3.160e+02 3.170e+02 3.180e+02]
  [3.190e+02 3.200e+02 3.210e+02 ... 3.270e+02 3.280e+02 3.290e+02]]

 ...

 [[7.700e+02 7.710e+02 7.720e+02 ... 7.780e+02 7.790e+02 7.800e+02]
  [7.810e+02 7.820e+02 7.830e+02 ... 7.890e+02 7.900e+02 7.910e+02]
  [7.920e+02 7.930e+02 7.940e+02 ... 8.000e+02 8.010e+02 8.020e+02]
  ...
  [8.470e+02 8.480e+02 8.490e+02 ... 8.550e+02 8.560e+02 8.570e+02]
  [8.580e+02 8.590e+02 8.600e+02 ... 8.660e+02 8.670e+02 8.680e+02]
  [8.690e+02 8.700e+02 8.710e+02 ... 8.770e+02 8.780e+02 8.790e+02]]

 [[8.800e+02 8.810e+02 8.820e+02 ... 8.880e+02 8.890e+02 8.900e+02]
  [8.910e+02 8.920e+02 8.930e+02 ... 8.990e+02 9.000e+02 9.010e+02]
  [9.020e+02 9.030e+02 9.040e+02 ... 9.100e+02 9.110e+02 9.120e+02]
  ...
  [9.570e+02 9.580e+02 9.590e+02 ... 9.650e+02 9.660e+02 9.670e+02]
  [9.680e+02 9.690e+02 9.700e+02 ... 9.760e+02 9.770e+02 9.780e+02]
  [9.790e+02 9.800e+02 9.810e+02 ... 9.870e+02 9.880e+02 9.890e+02]]

 [[9.900e+02 9.910e+02 9.920e+02 ... 9.980e+02 9.990e+02 1.000e+03]
  [1.001e+03 1.002e+03 1.003e+03 ... 1.009e+03 1.010e+03 1.011e+03]
  [1.012e+03 1.013e+03 1.014e+03 ... 1.020e+03 1.021e+03 1.022e+03]
  ...
  [1.067e+03 1.068e+03 1.069e+03 ... 1.075e+03 1.076e+03 1.077e+03]
  [1.078e+03 1.079e+03 1.080e+03 ... 1.086e+03 1.087e+03 1.088e+03]
  [1.089e+03 1.090e+03 1.091e+03 ... 1.097e+03 1.098e+03 1.099e+03]]]`},
	{"wraps", func(mem memory.Allocator) (*array.Array, error) { return arange(mem, array.Float64, 40) }, `[ 0.  1.  2.  3.  4.  5.  6.  7.  8.  9. 10. 11. 12. 13. 14. 15. 16. 17.
 18. 19. 20. 21. 22. 23. 24. 25. 26. 27. 28. 29. 30. 31. 32. 33. 34. 35.
 36. 37. 38. 39.]`},
	{"wraps 2-D", func(mem memory.Allocator) (*array.Array, error) { return arange(mem, array.Uint32, 2, 30) }, `[[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23
  24 25 26 27 28 29]
 [30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53
  54 55 56 57 58 59]]`},
	{"no summary at threshold", func(mem memory.Allocator) (*array.Array, error) { return arange(mem, array.Uint8, 1000) }, `[  0   1   2   3   4   5   6   7   8   9  10  11  12  13  14  15  16  17
  18  19  20  21  22  23  24  25  26  27  28  29  30  31  32  33  34  35
  36  37  38  39  40  41  42  43  44  45  46  47  48  49  50  51  52  53
  54  55  56  57  58  59  60  61  62  63  64  65  66  67  68  69  70  71
  72  73  74  75  76  77  78  79  80  81  82  83  84  85  86  87  88  89
  90  91  92  93  94  95  96  97  98  99 100 101 102 103 104 105 106 107
 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 125
 126 127 128 129 130 131 132 133 134 135 136 137 138 139 140 141 142 143
 144 145 146 147 148 149 150 151 152 153 154 155 156 157 158 159 160 161
 162 163 164 165 166 167 168 169 170 171 172 173 174 175 176 177 178 179
 180 181 182 183 184 185 186 187 188 189 190 191 192 193 194 195 196 197
 198 199 200 201 202 203 204 205 206 207 208 209 210 211 212 213 214 215
 216 217 218 219 220 221 222 223 224 225 226 227 228 229 230 231 232 233
 234 235 236 237 238 239 240 241 242 243 244 245 246 247 248 249 250 251
 252 253 254 255   0   1   2   3   4   5   6   7   8   9  10  11  12  13
  14  15  16  17  18  19  20  21  22  23  24  25  26  27  28  29  30  31
  32  33  34  35  36  37  38  39  40  41  42  43  44  45  46  47  48  49
  50  51  52  53  54  55  56  57  58  59  60  61  62  63  64  65  66  67
  68  69  70  71  72  73  74  75  76  77  78  79  80  81  82  83  84  85
  86  87  88  89  90  91  92  93  94  95  96  97  98  99 100 101 102 103
 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121
 122 123 124 125 126 127 128 129 130 131 132 133 134 135 136 137 138 139
 140 141 142 143 144 145 146 147 148 149 150 151 152 153 154 155 156 157
 158 159 160 161 162 163 164 165 166 167 168 169 170 171 172 173 174 175
 176 177 178 179 180 181 182 183 184 185 186 187 188 189 190 191 192 193
 194 195 196 197 198 199 200 201 202 203 204 205 206 207 208 209 210 211
 212 213 214 215 216 217 218 219 220 221 222 223 224 225 226 227 228 229
 230 231 232 233 234 235 236 237 238 239 240 241 242 243 244 245 246 247
 248 249 250 251 252 253 254 255   0   1   2   3   4   5   6   7   8   9
  10  11  12  13  14  15  16  17  18  19  20  21  22  23  24  25  26  27
  28  29  30  31  32  33  34  35  36  37  38  39  40  41  42  43  44  45
  46  47  48  49  50  51  52  53  54  55  56  57  58  59  60  61  62  63
  64  65  66  67  68  69  70  71  72  73  74  75  76  77  78  79  80  81
  82  83  84  85  86  87  88  89  90  91  92  93  94  95  96  97  98  99
 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117
 118 119 120 121 122 123 124 125 126 127 128 129 130 131 132 133 134 135
 136 137 138 139 140 141 142 143 144 145 146 147 148 149 150 151 152 153
 154 155 156 157 158 159 160 161 162 163 164 165 166 167 168 169 170 171
 172 173 174 175 176 177 178 179 180 181 182 183 184 185 186 187 188 189
 190 191 192 193 194 195 196 197 198 199 200 201 202 203 204 205 206 207
 208 209 210 211 212 213 214 215 216 217 218 219 220 221 222 223 224 225
 226 227 228 229 230 231 232 233 234 235 236 237 238 239 240 241 242 243
 244 245 246 247 248 249 250 251 252 253 254 255   0   1   2   3   4   5
   6   7   8   9  10  11  12  13  14  15  16  17  18  19  20  21  22  23
  24  25  26  27  28  29  30  31  32  33  34  35  36  37  38  39  40  41
  42  43  44  45  46  47  48  49  50  51  52  53  54  55  56  57  58  59
  60  61  62  63  64  65  66  67  68  69  70  71  72  73  74  75  76  77
  78  79  80  81  82  83  84  85  86  87  88  89  90  91  92  93  94  95
  96  97  98  99 100 101 102 103 104 105 106 107 108 109 110 111 112 113
 114 115 116 117 118 119 120 121 122 123 124 125 126 127 128 129 130 131
 132 133 134 135 136 137 138 139 140 141 142 143 144 145 146 147 148 149
 150 151 152 153 154 155 156 157 158 159 160 161 162 163 164 165 166 167
 168 169 170 171 172 173 174 175 176 177 178 179 180 181 182 183 184 185
 186 187 188 189 190 191 192 193 194 195 196 197 198 199 200 201 202 203
 204 205 206 207 208 209 210 211 212 213 214 215 216 217 218 219 220 221
 222 223 224 225 226 227 228 229 230 231]`},
	{"rank 3", func(mem memory.Allocator) (*array.Array, error) { return arange(mem, array.Int64, 2, 3, 4) }, `[[[ 0  1  2  3]
  [ 4  5  6  7]
  [ 8  9 10 11]]

 [[12 13 14 15]
  [16 17 18 19]
  [20 21 22 23]]]`},
	{"rank 4", func(mem memory.Allocator) (*array.Array, error) { return arange(mem, array.Int64, 2, 2, 1, 2) }, `[[[[0 1]]

  [[2 3]]]


 [[[4 5]]

  [[6 7]]]]`},
	{"rank 0 float", func(mem memory.Allocator) (*array.Array, error) { return array.Scalar(mem, 3.5) }, `3.5`},
	{"rank 0 int", func(mem memory.Allocator) (*array.Array, error) { return array.Scalar(mem, int16(-7)) }, `-7`},
	{"rank 0 bool", func(mem memory.Allocator) (*array.Array, error) { return array.Scalar(mem, true) }, `True`},
	{"zero size", func(mem memory.Allocator) (*array.Array, error) { return array.New(mem, array.Float64, 2, 0) }, `[]`},
	{"transposed view", func(mem memory.Allocator) (*array.Array, error) { return transposed(mem) }, `[[0. 3.]
 [1. 4.]
 [2. 5.]]`},
	{"broadcast view", func(mem memory.Allocator) (*array.Array, error) { return broadcast(mem) }, `[[ 1.5 -2.   3. ]
 [ 1.5 -2.   3. ]]`},
	{"reversed view", func(mem memory.Allocator) (*array.Array, error) { return reversed(mem) }, `[4 3 2 1 0]`},
}

func TestFormatMatchesNumPy(t *testing.T) {
	for _, c := range numpyPrints {
		t.Run(c.name, func(t *testing.T) {
			mem := checkedMem(t)
			a, err := c.make(mem)
			require.NoError(t, err)
			defer a.Release()
			assert.Equal(t, c.want, fmt.Sprintf("%v", a))
			assert.Equal(t, c.want, fmt.Sprintf("%s", a))
			assert.Equal(t, c.want, a.String())
			for _, line := range strings.Split(c.want, "\n") {
				assert.LessOrEqual(t, len(line), array.PrintLineWidth)
			}
		})
	}
}

func TestFormatNulls(t *testing.T) {
	mem := checkedMem(t)
	a, err := array.FromSliceValid(mem, []float64{1, 7, 2.5}, []bool{true, false, true})
	require.NoError(t, err)
	defer a.Release()
	assert.Equal(t, "[ 1.  null  2.5]", a.String())
	assert.Equal(t, "[1.00 null 2.50]", fmt.Sprintf("%.2f", a))

	b, err := array.FromSliceValid(mem, []bool{true, false, false}, []bool{true, true, false})
	require.NoError(t, err)
	defer b.Release()
	assert.Equal(t, "[ True False  null]", b.String())
	assert.Equal(t, "[true  false null ]", fmt.Sprintf("%-t", b))

	// A null's value (zero) takes no part in the float format: 1e-9 alone
	// picks scientific notation.
	c, err := array.FromSliceValid(mem, []float64{1e-9, 5}, []bool{true, false})
	require.NoError(t, err)
	defer c.Release()
	assert.Equal(t, "[1.e-09   null]", c.String())
}

func TestFormatVerbs(t *testing.T) {
	mem := checkedMem(t)
	a, err := array.FromSlice(mem, []float64{1, -2.25, 1000.5, 0.125}, 2, 2)
	require.NoError(t, err)
	defer a.Release()
	for _, c := range []struct{ format, want string }{
		{"%.3f", "[[   1.000   -2.250]\n [1000.500    0.125]]"},
		{"%+.1f", "[[   +1.0    -2.2]\n [+1000.5    +0.1]]"},
		{"%e", "[[ 1.000000e+00 -2.250000e+00]\n [ 1.000500e+03  1.250000e-01]]"},
		{"%g", "[[     1  -2.25]\n [1000.5  0.125]]"},
		{"%8.2f", "[[    1.00    -2.25]\n [ 1000.50     0.12]]"},
		{"%-6g", "[[1      -2.25 ]\n [1000.5 0.125 ]]"},
		{"%.2v", "[[ 1.00e+00 -2.25e+00]\n [ 1.00e+03  1.25e-01]]"},
		{"%+v", "array([[ 1.0000e+00 -2.2500e+00]\n       [ 1.0005e+03  1.2500e-01]], dtype=float64, shape=[2 2])"},
		{"%#v", "array(float64 [2 2] strides [2 1] offset 0)"},
	} {
		assert.Equal(t, c.want, fmt.Sprintf(c.format, a), c.format)
	}

	i, err := array.FromSlice(mem, []int16{10, -3, 255})
	require.NoError(t, err)
	defer i.Release()
	for _, c := range []struct{ format, want string }{
		{"%v", "[ 10  -3 255]"},
		{"%5d", "[   10    -3   255]"},
		{"%x", "[ a -3 ff]"},
		{"%04d", "[0010 -003 0255]"},
		{"%.1f", "[ 10.0  -3.0 255.0]"},
		{"%+v", "array([ 10  -3 255], dtype=int16, shape=[3])"},
	} {
		assert.Equal(t, c.want, fmt.Sprintf(c.format, i), c.format)
	}

	h, err := array.FromSlice(mem, f16(0.5, 1.25))
	require.NoError(t, err)
	defer h.Release()
	assert.Equal(t, "[0.5  1.25]", fmt.Sprintf("%v", h))
	assert.Equal(t, "[0.500 1.250]", fmt.Sprintf("%.3f", h))
	assert.Equal(t, "[0.5  1.25]", fmt.Sprintf("%-g", h))
}

func TestFormatNilReleasedAndHuge(t *testing.T) {
	mem := checkedMem(t)
	var nilArr *array.Array
	assert.Equal(t, "array(nil)", fmt.Sprintf("%v", nilArr))
	assert.Equal(t, "array(nil)", fmt.Sprintf("%.2f", nilArr))
	assert.Equal(t, "array(nil)", nilArr.String())
	assert.Equal(t, "array(DType(0) [] strides [] offset 0 released)", new(array.Array).String(), "the zero value")

	a, err := array.FromSlice(mem, []float64{1, 2})
	require.NoError(t, err)
	a.Release()
	assert.Equal(t, "array(float64 [2] strides [1] offset 0 released)", fmt.Sprintf("%v", a))

	// A broadcast of one element to 7^20 elements: even summarised it would
	// show 6^20, so only the header prints, and nothing is allocated for it.
	s, err := array.Scalar(mem, int32(4))
	require.NoError(t, err)
	defer s.Release()
	shape, strides := make([]int, 20), make([]int, 20)
	for i := range shape {
		shape[i] = 7
	}
	big, err := s.View(shape, strides, 0)
	require.NoError(t, err)
	defer big.Release()
	out := big.String()
	assert.True(t, strings.HasPrefix(out, "array(int32 [7 7 7"), out)
	assert.True(t, strings.HasSuffix(out, " [...]"), out)

	// Summarised, a rank-6 broadcast of 7s prints 6^6 elements in brackets.
	b6, err := s.View(shape[:6], strides[:6], 0)
	require.NoError(t, err)
	defer b6.Release()
	out = b6.String()
	assert.Equal(t, 6*6*6*6*6*6, strings.Count(out, "4"))
	// one "..." per row, and one line of "..." per summarised outer axis
	assert.Equal(t, 6*6*6*6*6+(1+6+6*6+6*6*6+6*6*6*6), strings.Count(out, "..."))
	assert.True(t, strings.HasPrefix(out, "[[[[[[4 4 4 ... 4 4 4]"), out[:40])
}

// The verbs write through fmt.State: a %v inside a longer format and
// Fprintf work as for any value.
func TestFormatInsideText(t *testing.T) {
	mem := checkedMem(t)
	a, err := array.FromSlice(mem, []uint8{1, 2})
	require.NoError(t, err)
	defer a.Release()
	assert.Equal(t, "x = [1 2];", fmt.Sprintf("x = %v;", a))
	assert.Equal(t, "[    1     2]", fmt.Sprintf("%5v", a))
	assert.Len(t, fmt.Sprintf("%999999v", a), len("[\n ]")+2*1000, "the width is capped (and the second element wraps)")
	assert.Len(t, fmt.Sprintf("%0999999d", a), len("[\n ]")+2*1000, "the width is capped (and the second element wraps)")
	var sb strings.Builder
	fmt.Fprintln(&sb, a)
	assert.Equal(t, "[1 2]\n", sb.String())
}

func ExampleArray_Format() {
	a, _ := array.FromSlice(nil, []float64{1, 2.5, -3, 0.125, 10, math.NaN()}, 2, 3)
	defer a.Release()
	fmt.Println(a)
	fmt.Printf("%.2f\n", a)
	fmt.Printf("%+v\n", a)
	fmt.Printf("%#v\n", a)
	// Output:
	// [[ 1.     2.5   -3.   ]
	//  [ 0.125 10.       nan]]
	// [[ 1.00  2.50 -3.00]
	//  [ 0.12 10.00   NaN]]
	// array([[ 1.     2.5   -3.   ]
	//        [ 0.125 10.       nan]], dtype=float64, shape=[2 3])
	// array(float64 [2 3] strides [3 1] offset 0)
}

// TestFormatNilState: Format called directly with a nil fmt.State (not
// through fmt) writes nothing and does not panic, for a nil, zero,
// released, 0-d or 2-d array; through fmt the zero and released arrays
// print their header. Found by the API sweep (internal/apisweep).
func TestFormatNilState(t *testing.T) {
	a, err := array.Arange(nil, array.Float64, 0, 6, 1)
	require.NoError(t, err)
	defer a.Release()
	s, err := array.Scalar(nil, 1.5)
	require.NoError(t, err)
	defer s.Release()
	r, err := array.New(nil, array.Int32, 2)
	require.NoError(t, err)
	r.Release()
	for _, x := range []*array.Array{nil, new(array.Array), r, s, a} {
		for _, verb := range []rune{0, 'v', 'f', -1} {
			assert.NotPanics(t, func() { x.Format(nil, verb) }, "%#v %q", x, verb)
		}
	}
	assert.Equal(t, "array(nil)", fmt.Sprint((*array.Array)(nil)))
	assert.Contains(t, fmt.Sprint(new(array.Array)), "released")
	assert.Contains(t, fmt.Sprint(r), "released")
}

// TestAllocErrorNil: a nil *AllocError formats and unwraps without a
// panic, like broadcast's *Error. Found by the API sweep.
func TestAllocErrorNil(t *testing.T) {
	var e *array.AllocError
	assert.Equal(t, "array: <nil error>", e.Error())
	assert.Nil(t, e.Unwrap())
	var z array.AllocError
	assert.NotPanics(t, func() { _ = z.Error() })
}
