// Package testmain runs a test binary's pipelines on Beam's test runner
// without leaving files behind.
//
// Beam's portable submission in loopback mode (runnerlib.Execute in the Go
// SDK, 2.68) creates an empty "beamloopbackworker-*" file in os.TempDir for
// every pipeline it runs and never removes it: a test suite of forty
// pipelines left forty files in /tmp per run. Main points TMPDIR at a
// private directory for the whole test binary and removes it afterwards.
package testmain

import (
	"fmt"
	"os"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
)

// Main is the TestMain of a package whose tests run Beam pipelines: it runs
// m through ptest (the default test runner, prism) with os.TempDir in a
// private directory, removes that directory, and exits with the tests'
// status.
func Main(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "stride0-beam-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "testmain:", err)
		return 1
	}
	old, had := os.LookupEnv("TMPDIR")
	os.Setenv("TMPDIR", dir)
	code := ptest.MainRet(m)
	if had {
		os.Setenv("TMPDIR", old)
	} else {
		os.Unsetenv("TMPDIR")
	}
	if err := os.RemoveAll(dir); err != nil {
		fmt.Fprintln(os.Stderr, "testmain:", err)
	}
	return code
}
