// Package apisweep holds the API sweep: a test that calls every exported
// function and method of the library's packages with zero values (nil
// pointers, slices, maps, interfaces and funcs, 0, "", zero structs, nil
// and zero-valued receivers) and with hostile ones (-1 and 1<<62 for
// integers, released and 0-d arrays), and fails on any panic, any call
// that blocks for more than 5 s, and any call that allocates more than
// 256 MiB.
//
// The calls are generated (sweep_gen_test.go, by ./gen); TestSweepListing
// fails when an exported function or method has no entry, so run go
// generate here after changing the API.
package apisweep

//go:generate go run ./gen -o sweep_gen_test.go
