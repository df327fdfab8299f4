package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"unsafe"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// dtypes are the dtypes the suites go through, in NumPy's names.
var dtypes = []string{"bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32", "float64"}

// npyDTypes maps .npy descriptors (little-endian) to dtype names.
var npyDTypes = map[string]string{"|b1": "bool", "|i1": "int8", "|u1": "uint8", "<i2": "int16", "<u2": "uint16", "<i4": "int32",
	"<u4": "uint32", "<i8": "int64", "<u8": "uint64", "<f2": "float16", "<f4": "float32", "<f8": "float64"}

var (
	npyDescr = regexp.MustCompile(`'descr': '([^']+)'`)
	npyShape = regexp.MustCompile(`'shape': \(([^)]*)\)`)
)

// readNpy reads a C-ordered .npy file (version 1) into a new array.
func readNpy(name string) (*array.Array, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	if len(b) < 10 || string(b[1:6]) != "NUMPY" {
		return nil, fmt.Errorf("%s: not a .npy file", name)
	}
	hl := int(b[8]) | int(b[9])<<8
	if 10+hl > len(b) {
		return nil, fmt.Errorf("%s: header past the end", name)
	}
	hdr := string(b[10 : 10+hl])
	d, s := npyDescr.FindStringSubmatch(hdr), npyShape.FindStringSubmatch(hdr)
	if d == nil || s == nil || strings.Contains(hdr, "'fortran_order': True") {
		return nil, fmt.Errorf("%s: unsupported header %q", name, hdr)
	}
	var shape []int
	for _, f := range strings.Split(s[1], ",") {
		if f = strings.TrimSpace(f); f != "" {
			v, err := strconv.Atoi(f)
			if err != nil {
				return nil, fmt.Errorf("%s: shape %q", name, s[1])
			}
			shape = append(shape, v)
		}
	}
	dt, err := array.ParseDType(npyDTypes[d[1]])
	if err != nil {
		return nil, fmt.Errorf("%s: dtype %q", name, d[1])
	}
	return fromBytes(dt, b[10+hl:], shape...)
}

// fromBytes makes a new array of dt and shape holding raw (little-endian,
// C order).
func fromBytes(dt array.DType, raw []byte, shape ...int) (*array.Array, error) {
	a, err := array.New(nil, dt, shape...)
	if err != nil {
		return nil, err
	}
	n := a.Len() * dt.Size()
	if len(raw) < n {
		a.Release()
		return nil, fmt.Errorf("%d bytes for %v %v", len(raw), dt, shape)
	}
	if n > 0 {
		copy(unsafe.Slice((*byte)(a.DataPointer()), n), raw)
	}
	return a, nil
}

// evalOut evaluates e and writes its result's bytes (C order) to file,
// returning the result's dtype and shape for the manifest.
func evalOut(e *expr.Node, file string) (string, error) {
	r, err := expr.Eval(e)
	if err != nil {
		return "", err
	}
	defer r.Release()
	return writeOut(r, file)
}

// writeOut writes a's bytes in C order to file and returns "dtype [shape]".
func writeOut(a *array.Array, file string) (string, error) {
	c, err := expr.Eval(expr.Leaf(a)) // a contiguous copy
	if err != nil {
		return "", err
	}
	defer c.Release()
	var raw []byte
	if c.Len() > 0 {
		raw = unsafe.Slice((*byte)(c.DataPointer()), c.Len()*c.DType().Size())
	}
	if err := os.WriteFile(file, raw, 0o644); err != nil {
		return "", err
	}
	return fmt.Sprintf("%v %s", c.DType(), strings.ReplaceAll(fmt.Sprint(c.Shape()), " ", ",")), nil
}

// withManifest creates the manifest file name, runs f with a writer on it
// and flushes it.
func withManifest(name string, f func(w *bufio.Writer) error) error {
	man, err := os.Create(name)
	if err != nil {
		return err
	}
	defer man.Close()
	w := bufio.NewWriter(man)
	if err := f(w); err != nil {
		return err
	}
	return w.Flush()
}

// loadInput reads the ops suite's input of dtype name (in_<name>.bin) as
// a [n/64, 64] array, its elements in reverse order when reverse is set.
func loadInput(name string, reverse bool) (*array.Array, error) {
	dt, err := array.ParseDType(name)
	if err != nil {
		return nil, err
	}
	raw, err := os.ReadFile("in_" + name + ".bin")
	if err != nil {
		return nil, err
	}
	sz := dt.Size()
	n := len(raw) / sz
	if reverse {
		rev := make([]byte, len(raw))
		for i := 0; i < n; i++ {
			copy(rev[i*sz:(i+1)*sz], raw[(n-1-i)*sz:(n-i)*sz])
		}
		raw = rev
	}
	return fromBytes(dt, raw, n/64, 64)
}
