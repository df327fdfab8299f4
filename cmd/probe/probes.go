package main

// probes lists every hostile input of issue 9, by item, and later ones.
var probes = []probe{
	{"1a", "sqrt(xs+xs), WithTileSize(1<<61), step-2 slice of 200000 float32", func() (string, string) { return tileProbe(200000, 1<<61) }},
	{"1b", "sqrt(xs+xs), WithTileSize(1<<36), 100000 elements", func() (string, string) { return tileProbe(100000, 1<<36) }},
	{"1c", "other absurd tile sizes, 3 workers, a reduction", absurdTiles},
	{"2", "ReduceSum/Max/Mean of BroadcastNumpy(ones[1 1], [1<<32 1<<32])", overflowShape},
	{"3a", "IPC stream whose bodyLength claims 0xFF000000 bytes", bodyLengthLie},
	{"3b", "zstd stream of 3 batches decompressing to 3.3 GB each", zstdBomb},
	{"4a", "IPC file with a dictionary<int8, utf8> column: leaks after Release", dictFileLeak},
	{"4b", "single-bit corruptions of an lz4 stream with a dictionary column: leaks", lz4Flips},
	{"5", "bit flips of a dictionary+int32 stream: batches usable or errors", corruptBatches},
	{"6a", "ImportCArray of zeroed structs", cImport("ImportCArray", false)},
	{"6b", "ImportArray of zeroed structs", cImport("ImportArray", false)},
	{"6c", "ImportCRecordBatch of zeroed structs", cImport("ImportCRecordBatch", false)},
	{"6d", "ImportCArray of released structs", cImport("ImportCArray", true)},
	{"6e", "ImportArray of released structs", cImport("ImportArray", true)},
	{"6f", "ImportCRecordBatch of released structs", cImport("ImportCRecordBatch", true)},
	{"7", "Evaluate of ReduceMean(v, [0]) over batches of 3 rows of 3 features", meanOverBatch},
	{"8", "EvalInto 1..9 into z.View([3 3], [1 1], 0)", selfOverlap},
	{"9", "WithWorkers(1e9) on a 4M-element add", manyWorkers},
	{"10a", "nil and zero *expr.Plan and *expr.Node", nilPlan},
	{"10b", "nil *FixedShapeTensorType methods", nilTensorType},
	{"10c", "nil *FixedShapeTensorArray methods", nilTensorArray},
	{"10d", "WriteRecords(w, true, schema, []arrow.Record{nil})", nilRecord},
	{"11", "tensor columns of transposed views: only involutions written", permutations},
	// beyond issue 9's list
	{"12", "e = e + e nested 60 times: Eval, String, Vars of 2^60 paths", sharedDAG},
}
