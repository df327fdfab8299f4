// Reads an IPC file written by stride0's arrowio tests, checks values, shapes
// and fixed_shape_tensor metadata with apache-arrow (JavaScript), and writes
// a file back for the Go test to check.
//
// usage: node roundtrip.mjs IN.arrow OUT.arrow
import { readFileSync, writeFileSync } from 'node:fs';
import {
  tableFromIPC, tableToIPC, Table, RecordBatch, Schema, Field, Struct,
  FixedSizeList, Float64, Float32, makeData,
} from 'apache-arrow';

const [inPath, outPath] = process.argv.slice(2);
let failures = 0;
function check(cond, msg) {
  if (!cond) { console.error('FAIL: ' + msg); failures++; }
}
const EXT = 'ARROW:extension:name';
const META = 'ARROW:extension:metadata';
const TENSOR = 'arrow.fixed_shape_tensor';

const table = tableFromIPC(readFileSync(inPath));
const field = (name) => table.schema.fields.find((f) => f.name === name);
check(table.batches.length === 3, `batches: ${table.batches.length}`);
check(table.numRows === 6, `rows: ${table.numRows}`);

// "t": float32 tensors of shape [2,3], dim names h,w; row r element e holds
// 10*r + e; element (r=0, e=4) is null, row 3 is null.
const t = field('t');
check(t && t.metadata.get(EXT) === TENSOR, 't: extension name');
const tmeta = JSON.parse(t.metadata.get(META));
check(JSON.stringify(tmeta.shape) === '[2,3]', `t: shape ${JSON.stringify(tmeta.shape)}`);
check(JSON.stringify(tmeta.dim_names) === '["h","w"]', 't: dim_names');
check(tmeta.permutation === undefined, 't: no permutation');
check(t.type.listSize === 6, `t: list size ${t.type.listSize}`);
const tcol = table.getChild('t');
for (let r = 0; r < table.numRows; r++) {
  const row = tcol.get(r);
  if (r === 3) { check(row === null, 't: row 3 null'); continue; }
  check(row !== null, `t: row ${r} valid`);
  for (let e = 0; e < 6; e++) {
    const v = row.get(e);
    if (r === 0 && e === 4) { check(v === null, 't: element (0,4) null'); continue; }
    check(v === 10 * r + e, `t: row ${r} element ${e} = ${v}`);
  }
}

// "tt": int32 tensors stored transposed: physical shape [3,2] with
// permutation [1,0], i.e. logical [2,3]; logical (i,j) of row r holds
// 100*r + 3*i + j, and lives at physical (j,i) = element 2*j + i.
const tt = field('tt');
const ttmeta = JSON.parse(tt.metadata.get(META));
check(JSON.stringify(ttmeta.shape) === '[3,2]', 'tt: physical shape');
check(JSON.stringify(ttmeta.permutation) === '[1,0]', 'tt: permutation');
const ttcol = table.getChild('tt');
for (let r = 0; r < table.numRows; r++) {
  const row = ttcol.get(r);
  for (let i = 0; i < 2; i++) for (let j = 0; j < 3; j++) {
    const v = row.get(2 * j + i);
    check(v === 100 * r + 3 * i + j, `tt: row ${r} (${i},${j}) = ${v}`);
  }
}

// "scaled": float64 [3] tensors computed by a broadcast expression in Go:
// x[r,j] * w[j] with x[r,j] = 3*r + j and w = [1, 10, 100].
const w = [1, 10, 100];
const sc = table.getChild('scaled');
check(JSON.parse(field('scaled').metadata.get(META)).shape[0] === 3, 'scaled: shape');
for (let r = 0; r < table.numRows; r++) {
  const row = sc.get(r);
  for (let j = 0; j < 3; j++) check(row.get(j) === (3 * r + j) * w[j], `scaled: (${r},${j}) = ${row.get(j)}`);
}

// "id": int64 with row 1 null; "flag": bool r % 2 == 0.
const id = table.getChild('id');
const flag = table.getChild('flag');
for (let r = 0; r < table.numRows; r++) {
  if (r === 1) check(id.get(r) === null, 'id: row 1 null');
  else check(id.get(r) === BigInt(r * 7), `id: row ${r} = ${id.get(r)}`);
  check(flag.get(r) === (r % 2 === 0), `flag: row ${r}`);
}

// Write back, batch by batch: "t" as read (field and metadata passed
// through), "row_sum" = sum of the valid elements of each row of t (null for
// a null row), and "made_in_js", float64 tensors of logical shape [2,2]
// stored transposed: physical [2,2] with permutation [1,0]; physical element
// e of row r holds 1000*r + e.
const madeMeta = new Map([[EXT, TENSOR], [META, JSON.stringify({ shape: [2, 2], permutation: [1, 0] })]]);
const fields = [
  t,
  new Field('row_sum', new Float64(), true),
  new Field('made_in_js', new FixedSizeList(4, new Field('item', new Float64(), true)), false, madeMeta),
];
const schema = new Schema(fields, new Map([['written_by', 'apache-arrow js']]));
const batches = [];
let base = 0;
for (const b of table.batches) {
  const n = b.numRows;
  const tv = b.getChild('t');
  const sums = new Float64Array(n);
  const valid = new Uint8Array(Math.ceil(n / 8) || 1);
  let nulls = 0;
  for (let r = 0; r < n; r++) {
    const row = tv.get(r);
    if (row === null) { nulls++; continue; }
    valid[r >> 3] |= 1 << (r & 7);
    for (let e = 0; e < 6; e++) { const v = row.get(e); if (v !== null) sums[r] += v; }
  }
  const made = new Float64Array(4 * n);
  for (let r = 0; r < n; r++) for (let e = 0; e < 4; e++) made[4 * r + e] = 1000 * (base + r) + e;
  const children = [
    tv.data[0],
    makeData({ type: new Float64(), length: n, nullCount: nulls, nullBitmap: valid, data: sums }),
    makeData({ type: fields[2].type, length: n, nullCount: 0, child: makeData({ type: new Float64(), length: 4 * n, data: made }) }),
  ];
  batches.push(new RecordBatch(schema, makeData({ type: new Struct(fields), length: n, nullCount: 0, children })));
  base += n;
}
writeFileSync(outPath, tableToIPC(new Table(schema, batches), 'file'));

if (failures > 0) {
  console.error(`${failures} checks failed`);
  process.exit(1);
}
console.log(`ok: ${table.numRows} rows in ${table.batches.length} batches checked, ${batches.length} batches written`);
