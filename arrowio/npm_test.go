package arrowio

import (
	"os"
	"testing"

	"github.com/stride0/stride0/internal/npmtest"
)

// npmPackages installs npm packages for an interop test (npmtest.Packages).
func npmPackages(t *testing.T, pkgs ...string) string { return npmtest.Packages(t, pkgs...) }

func TestMain(m *testing.M) {
	code := m.Run()
	npmtest.Cleanup()
	os.Exit(code)
}
