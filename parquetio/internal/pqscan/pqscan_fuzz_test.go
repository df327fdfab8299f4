package pqscan

import (
	"bytes"
	"errors"
	"testing"

	"github.com/stride0/stride0/internal/pqbomb"
)

// FuzzScan feeds arbitrary bytes to ReadFooter and CheckPages (every row
// group, every leaf) under limits of 1 MiB: they return nil or an error
// wrapping one of the sentinels, never panic, and allocate within bounds
// (the fuzzer's own memory limit catches the rest). Seeds: the hostile
// files of package pqbomb and small valid files written by hand.
func FuzzScan(f *testing.F) {
	for _, b := range pqbomb.Bombs() {
		f.Add(b.Data)
	}
	for _, b := range pqbomb.Valid() {
		f.Add(b)
	}
	for _, b := range pqbomb.FastBombs() {
		f.Add(b.Data)
	}
	for _, b := range pqbomb.FastValid() {
		f.Add(b)
	}
	lim := Limits{MaxBuffer: 1 << 20, MaxTotal: 64 << 20}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := ReadFooter(bytes.NewReader(data), int64(len(data)), lim)
		if err != nil {
			if !sentinel(err) {
				t.Fatalf("ReadFooter: %v wraps no sentinel", err)
			}
			return
		}
		groups := make([]int, len(file.RowGroups))
		for i := range groups {
			groups[i] = i
		}
		leaves := make([]int, len(file.Leaves))
		for i := range leaves {
			leaves[i] = i
		}
		if err := file.CheckPages(bytes.NewReader(data), groups, leaves, lim); err != nil && !sentinel(err) {
			t.Fatalf("CheckPages: %v wraps no sentinel", err)
		}
	})
}

func sentinel(err error) bool {
	return errors.Is(err, ErrInvalid) || errors.Is(err, ErrUnsupported)
}
