// Reads a Parquet file written by stride0's arrowio.WriteParquet with two
// readers that know nothing of stride0, and writes what each one saw as JSON
// for the Go test (parquet_interop_test.go) to check against what it wrote:
//
//   - DuckDB (npm @duckdb/node-api, DuckDB's native library): the column
//     types and nullability DESCRIBE reports, every row of SELECT *, counts
//     of NULL rows and of rows without a non-null element, the row groups,
//     and whether each list column casts to a fixed-size array;
//   - arrow-rs's Parquet reader (npm parquet-wasm, which restores the stored
//     ARROW:schema as pyarrow does), read into apache-arrow JS: each field's
//     type, nullability and metadata (ARROW:extension:name/metadata), and
//     every row.
//
// Values: a list row is an array of numbers (null for a null element), a
// null row is null, an int64 is a decimal string, a string is itself.
//
// usage: node parquet_readers.mjs IN.parquet OUT.json
import { readFileSync, writeFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { readParquet } from 'parquet-wasm';
import { tableFromIPC } from 'apache-arrow';

const [inPath, outPath] = process.argv.slice(2);
const out = {};

// --- DuckDB ---
{
  const inst = await DuckDBInstance.create(':memory:');
  const con = await inst.connect();
  const q = async (sql) => (await con.runAndReadAll(sql)).getRowObjectsJson();
  const src = `read_parquet('${inPath.replaceAll("'", "''")}')`;
  const d = { version: (await q('SELECT version() AS v'))[0].v };
  d.columns = (await q(`DESCRIBE SELECT * FROM ${src}`)).map((c) => ({
    name: c.column_name, type: c.column_type, nullable: c.null === 'YES',
  }));
  d.rows = await q(`SELECT * FROM ${src}`);
  d.count = Number((await q(`SELECT count(*) AS n FROM ${src}`))[0].n);
  d.rowGroups = Number((await q(
    `SELECT count(DISTINCT row_group_id) AS n FROM parquet_metadata('${inPath.replaceAll("'", "''")}')`))[0].n);
  d.nullRows = {};
  d.noValidElement = {};
  d.fixedCast = {};
  for (const c of d.columns) {
    const col = `"${c.name}"`;
    d.nullRows[c.name] = Number((await q(`SELECT count(*) AS n FROM ${src} WHERE ${col} IS NULL`))[0].n);
    const m = /^([A-Z]+)\[\]$/.exec(c.type);
    if (!m) continue;
    d.noValidElement[c.name] = Number((await q(
      `SELECT count(*) AS n FROM ${src} WHERE list_count(${col}) = 0`))[0].n);
    // Every row has the same length, so a cast to a fixed-size array works.
    const len = Number((await q(`SELECT max(len(${col})) AS n FROM ${src}`))[0].n);
    try {
      const r = await q(`SELECT DISTINCT typeof(${col}::${m[1]}[${len}]) AS t FROM ${src}`);
      d.fixedCast[c.name] = r.map((x) => x.t).join(',');
    } catch (e) {
      d.fixedCast[c.name] = 'error: ' + e.message;
    }
  }
  con.closeSync?.();
  out.duckdb = d;
}

// --- arrow-rs (parquet-wasm) into apache-arrow JS ---
{
  const table = tableFromIPC(readParquet(readFileSync(inPath)).intoIPCStream());
  const plain = (v) => {
    if (v === null || v === undefined) return null;
    if (typeof v === 'bigint') return String(v);
    if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') return v;
    return Array.from(v, plain); // a list row (a Vector)
  };
  const a = { count: table.numRows, fields: [], rows: {} };
  for (const f of table.schema.fields) {
    a.fields.push({
      name: f.name,
      type: String(f.type),
      nullable: f.nullable,
      listSize: f.type.listSize ?? null,
      childNullable: f.type.children?.[0]?.nullable ?? null,
      metadata: Object.fromEntries(f.metadata),
    });
    const col = table.getChild(f.name);
    const rows = [];
    for (let r = 0; r < table.numRows; r++) rows.push(plain(col.get(r)));
    a.rows[f.name] = rows;
  }
  a.schemaMetadataKeys = [...table.schema.metadata.keys()].sort();
  out.arrowrs = a;
}

writeFileSync(outPath, JSON.stringify(out));
