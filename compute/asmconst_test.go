package compute_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestNoWideConstantLoads: no assembly in compute or linalg reads a
// 64-byte constant from a data symbol into a Z register. The linker
// aligns data to 32 bytes at most, so such a load straddles two cache
// lines whenever a change elsewhere moves the table off a 64-byte
// boundary (float32 arctan once ran twice as slow that way); a constant
// is read as a broadcast of one lane (VBROADCASTSS/SD, .BCST) instead, a
// table in 32-byte halves (VBROADCASTF64X4, VINSERTF64X4).
func TestNoWideConstantLoads(t *testing.T) {
	mem := regexp.MustCompile(`[\w·<>]+(\+\d+)?\(SB\)`)
	zreg := regexp.MustCompile(`\bZ\d+\b`)
	files, err := filepath.Glob("*.s")
	require.NoError(t, err)
	more, err := filepath.Glob("../linalg/*.s")
	require.NoError(t, err)
	files = append(files, more...)
	require.NotEmpty(t, files)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		for i, line := range strings.Split(string(b), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "DATA") || strings.HasPrefix(line, "GLOBL") || strings.HasPrefix(line, "//") {
				continue
			}
			if !mem.MatchString(line) || !zreg.MatchString(line) {
				continue
			}
			op, _, _ := strings.Cut(line, " ")
			if strings.HasSuffix(op, ".BCST") || strings.HasPrefix(op, "VBROADCASTS") || strings.HasPrefix(op, "VPBROADCAST") ||
				strings.HasSuffix(op, "64X4") || strings.HasSuffix(op, "32X8") { // 32-byte halves (VBROADCASTF64X4, VINSERTF64X4)
				continue
			}
			t.Errorf("%s:%d: a 64-byte constant load: %s", f, i+1, line)
		}
	}
}
