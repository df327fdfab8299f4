package compute

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestNoLegacySSEAfterAVX: in the assembly of compute and linalg, no
// legacy (non-VEX) SSE instruction writes an X register after a 256-bit
// VEX instruction and before VZEROUPPER in the same function. On this
// project's CI machine (AMD EPYC under a hypervisor) such a write pays a
// state-transition penalty: where's AVX2 kernels loaded their conditions
// with MOVQ inside the loop and ran 85x slower than with VMOVQ (4096
// float32: 60 us against 0.7). Stores from an X register are fine.
func TestNoLegacySSEAfterAVX(t *testing.T) {
	files, err := filepath.Glob("*.s")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob(filepath.Join("..", "linalg", "*.s"))
	files = append(files, more...)
	if len(files) == 0 {
		t.Fatal("no assembly found")
	}
	wide := regexp.MustCompile(`\b[YZ]\d+\b`)
	xreg := regexp.MustCompile(`^X\d+$`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fn, dirty := "", false
		for i, line := range strings.Split(string(b), "\n") {
			s := strings.TrimSpace(line)
			if k := strings.Index(s, "//"); k >= 0 {
				s = strings.TrimSpace(s[:k])
			}
			if s == "" || strings.HasPrefix(s, "#") {
				continue
			}
			fields := strings.Fields(s)
			op := fields[0]
			switch {
			case op == "TEXT":
				fn, dirty = s, false
				continue
			case op == "VZEROUPPER":
				dirty = false
				continue
			case strings.HasPrefix(op, "V") && wide.MatchString(s):
				dirty = true
				continue
			}
			if strings.HasPrefix(op, "V") || !dirty || strings.HasSuffix(op, ":") {
				continue
			}
			ops := strings.Split(strings.Join(fields[1:], " "), ",")
			if dst := strings.TrimSpace(ops[len(ops)-1]); xreg.MatchString(dst) {
				t.Errorf("%s:%d: %q writes %s with a legacy SSE encoding after 256-bit AVX in %s (use the V form)", f, i+1, s, dst, fn)
			}
		}
	}
}
