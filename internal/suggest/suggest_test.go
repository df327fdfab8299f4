package suggest

import "testing"

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
