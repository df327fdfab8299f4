package suggest

import (
	"strings"
	"testing"
)

func TestNearest(t *testing.T) {
	cands := []string{"mean", "max", "min", "temperature", "site"}
	for _, c := range []struct{ name, want string }{
		{"mena", "mean"}, // a swap is two edits
		{"temprature", "temperature"},
		{"sit", "site"},
		{"xyz", ""},  // nothing close
		{"site", ""}, // exact match is skipped; "sit" is not among the candidates
		{string(make([]byte, 65)), ""},
	} {
		if got := Nearest(c.name, cands); got != c.want {
			t.Errorf("Nearest(%q) = %q, want %q", c.name, got, c.want)
		}
	}
	// ties: the first in sorted order
	if got := Nearest("ab", []string{"ac", "aa"}); got != "aa" {
		t.Errorf("tie: got %q, want \"aa\"", got)
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"a", "", 1}, {"kitten", "sitting", 3}, {"flaw", "lawn", 2}} {
		if got := Distance(c.a, c.b); got != c.d || Distance(c.b, c.a) != c.d {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}

func TestMissing(t *testing.T) {
	got := Missing("frame.Select", "no such column", "sitee", []string{"site", "y"})
	want := `frame.Select: no such column "sitee" (did you mean "site"?); the columns are "site", "y"`
	if got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	if got := Missing("w", "no such column", "a", nil); got != `w: no such column "a"; there are no columns` {
		t.Errorf("no columns: %s", got)
	}
	many := make([]string, 25)
	for i := range many {
		many[i] = string(rune('A' + i))
	}
	if got := Missing("w", "x", "zz", many); !strings.HasSuffix(got, `"T" and 5 more`) {
		t.Errorf("many: %s", got)
	}
}
