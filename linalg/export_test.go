package linalg

// Float32SumTerms is the most terms of k a float32 product sums in
// float32 before adding in float64: the GEMM's runs or gonum's blocks of
// 256 for a matrix times a vector, whichever is longer.
func Float32SumTerms() int { return max(256, gemmF32.block()) }
