module github.com/stride0/stride0

go 1.24

require (
	github.com/apache/arrow/go/v15 v15.0.2
	github.com/stretchr/testify v1.12.1
	github.com/viterin/vek v0.4.3
	golang.org/x/sys v0.13.0
	gonum.org/v1/gonum v0.12.0
)

require (
	github.com/chewxy/math32 v1.10.1 // indirect
	github.com/goccy/go-json v0.10.2 // indirect
	github.com/google/flatbuffers v23.5.26+incompatible // indirect
	github.com/klauspost/compress v1.16.7 // indirect
	github.com/klauspost/cpuid/v2 v2.2.5 // indirect
	github.com/pierrec/lz4/v4 v4.1.18 // indirect
	github.com/viterin/partial v1.1.0 // indirect
	github.com/zeebo/xxh3 v1.0.2 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/exp v0.0.0-20231006140011-7918f672742d // indirect
	golang.org/x/mod v0.13.0 // indirect
	golang.org/x/tools v0.14.0 // indirect
	golang.org/x/xerrors v0.0.0-20220907171357-04be3eba64a2 // indirect
)
