package frame

import (
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRewriteKeepsTheRest(t *testing.T) {
	s := arrow.NewSchema([]arrow.Field{
		{Name: "y", Type: arrow.PrimitiveTypes.Float64}, {Name: "site", Type: arrow.BinaryTypes.String},
		{Name: "d", Type: arrow.FixedWidthTypes.Date32},
	}, nil)
	for src, want := range map[string]string{
		"y > 1e-3":                        "y > 1e-3",
		`1e-3 < y & site == 'a b'`:        `1e-3 < y &  __frame_test0 `,
		`("x" <= site) | (y >> 2 > 1)`:    `( __frame_test0 ) | (y >> 2 > 1)`,
		`is_null( y ) & d>='2024-02-29'`:  ` __frame_test0  &  __frame_test1 `,
		`is_not_null(site)|site!="\"q\""`: ` __frame_test0 | __frame_test1 `,
	} {
		got, specs, err := rewrite("test", src, s)
		require.NoError(t, err, src)
		assert.Equal(t, want, got, src)
		for _, sp := range specs {
			assert.NotEmpty(t, sp.op)
		}
	}
	_, specs, err := rewrite("test", `"x" <= site`, s)
	require.NoError(t, err)
	assert.Equal(t, ">=", specs[0].op, "a literal on the left flips the comparison")
	_, specs, err = rewrite("test", `site != "\"q\""`, s)
	require.NoError(t, err)
	assert.Equal(t, `"q"`, specs[0].lit)
	_, _, err = rewrite("test", `d == '2024-02-30'`, s)
	assert.ErrorIs(t, err, ErrArgument)
	_, _, err = rewrite("test", `d == '2024-02-03 10:00'`, s)
	assert.ErrorIs(t, err, ErrArgument, "a date is a whole day")
}
