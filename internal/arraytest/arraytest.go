// Package arraytest holds the element accessors the tests of the module
// share: At and IsValid as in package array, failing the test (t.Fatal)
// on an error instead of returning it. Only tests import it; the tests of
// package array itself that are inside the package cannot (an import
// cycle), the others (package array_test) can.
package arraytest

import (
	"testing"

	"github.com/stride0/stride0/array"
)

// At returns array.At[T](a, idx...), failing the test on an error.
func At[T array.Element](t testing.TB, a *array.Array, idx ...int) T {
	t.Helper()
	v, err := array.At[T](a, idx...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// IsValid returns a.IsValid(idx...), failing the test on an error.
func IsValid(t testing.TB, a *array.Array, idx ...int) bool {
	t.Helper()
	ok, err := a.IsValid(idx...)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}
