// Package npmtest installs npm packages for the tests that check stride0
// against JavaScript programs (apache-arrow, DuckDB, arrow-rs compiled to
// WebAssembly): once per test binary, into a scratch folder that Cleanup
// removes. A machine without Node.js skips those tests, unless
// STRIDE0_REQUIRE_JS is set (as CI does), where a missing node or npm fails
// them.
package npmtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// RequireJS is set (STRIDE0_REQUIRE_JS=1, as .ci/run does) where the
// JavaScript interop tests must run: a missing node or npm is then a
// failure. Elsewhere, a machine with only Go skips them and says why.
var RequireJS = os.Getenv("STRIDE0_REQUIRE_JS") != ""

// npmInstall is one scratch folder of npm packages, installed at most once
// per test run.
type npmInstall struct {
	once sync.Once
	dir  string
	err  error
}

var npmInstalls struct {
	sync.Mutex
	m           map[string]*npmInstall // by the package list
	unreachable error                  // set once an install could not reach the registry
}

// npmNetErrors are the npm error codes of an unreachable registry (npm
// retries each for minutes: after one, later installs fail at once).
var npmNetErrors = []string{"ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "ECONNRESET", "ENETUNREACH", "EHOSTUNREACH"}

// Packages installs the npm packages pkgs (name@version) into a scratch
// folder once per test run (TestMain removes it) and returns the folder,
// where a script next to node_modules can import them. When node or npm is
// not installed it skips the test (fails it under STRIDE0_REQUIRE_JS); when
// the install fails (the npm registry cannot be reached, a package does not
// install on this platform) it fails the test, never skips it, so that a
// machine with Node.js does not silently stop checking interop. Once an
// install could not reach the registry, later ones fail without trying.
func Packages(t testing.TB, pkgs ...string) string {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			if RequireJS {
				t.Fatalf("JavaScript interop test cannot run: %s is not installed (on PATH): %v", tool, err)
			}
			t.Skipf("JavaScript interop test skipped: %s is not installed (on PATH); install Node.js and npm to run it (CI sets STRIDE0_REQUIRE_JS=1, which makes this a failure)", tool)
		}
	}
	key := strings.Join(pkgs, " ")
	npmInstalls.Lock()
	if npmInstalls.m == nil {
		npmInstalls.m = map[string]*npmInstall{}
	}
	in := npmInstalls.m[key]
	if in == nil {
		in = &npmInstall{}
		npmInstalls.m[key] = in
	}
	unreachable := npmInstalls.unreachable
	npmInstalls.Unlock()
	in.once.Do(func() {
		if unreachable != nil {
			in.err = fmt.Errorf("npm install %s not tried: %w", key, unreachable)
			return
		}
		dir, err := os.MkdirTemp("", "stride0-npm-")
		if err != nil {
			in.err = err
			return
		}
		in.dir = dir
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		args := append([]string{"install", "--no-save", "--no-audit", "--no-fund", "--prefix", dir}, pkgs...)
		start := time.Now()
		out, err := exec.CommandContext(ctx, "npm", args...).CombinedOutput()
		if err != nil {
			in.err = fmt.Errorf("npm install %s failed (is the npm registry reachable?): %w\n%s", key, err, out)
			for _, code := range npmNetErrors {
				if strings.Contains(string(out), code) {
					npmInstalls.Lock()
					npmInstalls.unreachable = fmt.Errorf("an earlier npm install could not reach the registry (%s)", code)
					npmInstalls.Unlock()
					break
				}
			}
			return
		}
		t.Logf("npm install %s: %v", key, time.Since(start).Round(time.Millisecond))
	})
	if in.err != nil {
		t.Fatalf("JavaScript interop test cannot run: %v", in.err)
	}
	return in.dir
}

// Cleanup removes the folders Packages made; call it from TestMain after
// m.Run.
func Cleanup() {
	npmInstalls.Lock()
	for _, in := range npmInstalls.m {
		if in.dir != "" {
			os.RemoveAll(in.dir)
		}
	}
	npmInstalls.Unlock()
}
