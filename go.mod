module github.com/stride0/stride0

go 1.26.8

require (
	github.com/apache/arrow/go/v15 v15.0.2 // indirect
	github.com/chewxy/math32 v1.10.1 // indirect
	github.com/stretchr/testify v1.12.1 // indirect
	github.com/viterin/partial v1.1.0 // indirect
	github.com/viterin/vek v0.4.3 // indirect
	golang.org/x/exp v0.0.0-20231006140011-7918f672742d // indirect
	golang.org/x/sys v0.13.0 // indirect
)
