package array_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// childEnv names the test that a re-executed test binary runs.
const childEnv = "STRIDE0_TEST_CHILD"

// runChild runs the test named name in a new process of this test binary,
// under ulimit -v kib when kib > 0, and returns its output.
func runChild(t *testing.T, name string, kib int) string {
	t.Helper()
	if raceEnabled {
		t.Skip("the race detector reserves terabytes of address space: no ulimit -v, no RSS bound")
	}
	exe, err := os.Executable()
	require.NoError(t, err)
	limit := "unlimited"
	if kib > 0 {
		limit = strconv.Itoa(kib)
	}
	cmd := exec.Command("sh", "-c", `ulimit -v `+limit+` && exec "$0" -test.run '^`+name+`$' -test.v -test.count 1`, exe)
	cmd.Env = append(os.Environ(), childEnv+"="+name)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "child %s:\n%s", name, out)
	require.Contains(t, string(out), "--- PASS: "+name, "child did not run:\n%s", out)
	return string(out)
}

func inChild(t *testing.T) {
	if os.Getenv(childEnv) != t.Name() {
		t.Skip("run in a child process by its parent test")
	}
}

// Under ulimit -v 4 GiB, requests too large for the address space left, and
// absurd ones, return errors; the process lives on and can allocate what fits.
func TestUnderAddressSpaceLimit(t *testing.T) {
	out := runChild(t, "TestChildUnderAddressSpaceLimit", 4<<20)
	t.Log(out)
}

func TestChildUnderAddressSpaceLimit(t *testing.T) {
	inChild(t)
	a, err := array.New(nil, array.Float64, 1<<29) // 4 GiB
	require.ErrorIs(t, err, array.ErrAlloc)
	assert.Nil(t, a)
	assert.Contains(t, err.Error(), "ulimit -v")
	assert.Contains(t, err.Error(), "shape [536870912] and data type float64")
	t.Log(err)

	_, err = array.New(nil, array.Float64, 1<<49)
	require.ErrorIs(t, err, array.ErrAlloc)
	_, err = array.Full(nil, float32(1), 1<<20, 1<<20)
	require.ErrorIs(t, err, array.ErrAlloc)

	x, err := array.New(nil, array.Float64, 1<<20, 1)
	require.NoError(t, err)
	y, err := array.New(nil, array.Float64, 1, 1<<20)
	require.NoError(t, err)
	r, err := expr.Eval(expr.Add(expr.Leaf(x), expr.Leaf(y)))
	require.ErrorIs(t, err, array.ErrAlloc)
	assert.Nil(t, r)
	assert.Contains(t, err.Error(), "8 TiB for an array with shape [1048576 1048576] and data type float64")
	t.Log(err)

	// what fits still works, again and again
	for i := 0; i < 20; i++ {
		big, err := array.Full(nil, float64(i), 1<<25) // 256 MiB
		require.NoError(t, err)
		s, _ := array.Values[float64](big)
		require.Equal(t, float64(i), s[len(s)-1])
		if i%2 == 0 {
			big.Release()
		}
	}
	x.Release()
	y.Release()
}

// 200 results of 64 MiB that the program never releases keep the resident
// memory under 2 GiB: the garbage collector reclaims them.
func TestDroppedResultsRSS(t *testing.T) {
	if testing.Short() {
		t.Skip("evaluates 12.8 GB of results")
	}
	out := runChild(t, "TestChildDroppedResultsRSS", 0)
	t.Log(out)
}

func TestChildDroppedResultsRSS(t *testing.T) {
	inChild(t)
	x, err := array.Full(nil, float32(0.5), 4096, 4096) // 64 MiB
	require.NoError(t, err)
	e := expr.Add(expr.Leaf(x), expr.Const(float32(1)))
	peak := int64(0)
	for i := 0; i < 200; i++ {
		r, err := expr.Eval(e)
		require.NoError(t, err)
		s, _ := array.Values[float32](r)
		require.Equal(t, float32(1.5), s[len(s)-1])
		peak = max(peak, status(t, "VmRSS:"))
	}
	for i := 0; i < 5; i++ {
		runtime.GC()
		time.Sleep(20 * time.Millisecond)
	}
	rss := status(t, "VmRSS:")
	t.Logf("RSS after GC %d MiB; highest seen in the loop %d MiB, VmHWM %d MiB", rss>>20, peak>>20, status(t, "VmHWM:")>>20)
	require.Less(t, rss, int64(2<<30))
	require.Less(t, peak, int64(2<<30))
	x.Release()
}

// status reads a size from /proc/self/status, in bytes.
func status(t *testing.T, key string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	require.NoError(t, err)
	i := bytes.Index(b, []byte(key))
	require.GreaterOrEqual(t, i, 0)
	var kib int64
	_, err = fmt.Sscan(string(b[i+len(key):]), &kib)
	require.NoError(t, err)
	return kib << 10
}
