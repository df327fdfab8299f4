// Package suggest finds the likely intended name for a misspelled one, so
// that an error about an unknown name (a Parse variable or function, a
// column of a record batch or a Parquet file) can say "did you mean ...?".
// It is shared by expr and arrowio so that both answer alike.
package suggest

import (
	"fmt"
	"sort"
	"strings"
)

// Nearest returns the candidate closest to name by edit distance, if it is
// close enough to be a likely typo ("" otherwise): a distance below 3, or
// below 2 for names of up to 3 bytes. Ties go to the first in sorted order,
// so the message is deterministic. Names longer than 64 bytes are never
// compared (the distance costs their product).
func Nearest(name string, candidates []string) string {
	if len(name) > 64 {
		return ""
	}
	sorted := append([]string(nil), candidates...)
	sort.Strings(sorted)
	best, bestD := "", 3
	if len(name) <= 3 {
		bestD = 2
	}
	for _, c := range sorted {
		if len(c) > 64 || c == name {
			continue
		}
		if d := Distance(name, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// Distance is the Levenshtein distance of a and b over bytes.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			c = min(c, prev[j]+1, cur[j-1]+1)
			cur[j] = c
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Missing formats the message for a name that is not among have: "<where>:
// <what> "<name>" (did you mean "<nearest>"?); the columns are "a", "b"
// and 3 more". It lists the first 20 names.
func Missing(where, what, name string, have []string) string {
	msg := fmt.Sprintf("%s: %s %q", where, what, name)
	if s := Nearest(name, have); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	if len(have) == 0 {
		return msg + "; there are no columns"
	}
	shown := have
	if len(shown) > 20 {
		shown = shown[:20]
	}
	q := make([]string, len(shown))
	for i, h := range shown {
		q[i] = fmt.Sprintf("%q", h)
	}
	msg += "; the columns are " + strings.Join(q, ", ")
	if len(have) > len(shown) {
		msg += fmt.Sprintf(" and %d more", len(have)-len(shown))
	}
	return msg
}

// MissingError is an error with Missing's message that wraps sentinel (a
// package's "no such column" error), so that errors.Is finds it.
func MissingError(where string, sentinel error, name string, have []string) error {
	return &missing{msg: Missing(where, sentinel.Error(), name, have), sentinel: sentinel}
}

type missing struct {
	msg      string
	sentinel error
}

func (e *missing) Error() string { return e.msg }
func (e *missing) Unwrap() error { return e.sentinel }
