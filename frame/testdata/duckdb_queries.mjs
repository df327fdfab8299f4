// Runs SQL queries with DuckDB (npm @duckdb/node-api) for the Go test
// duckdb_test.go, which runs the same queries with package frame and
// compares the rows.
//
// usage: node duckdb_queries.mjs IN.json OUT.json
// IN.json: {"tables": {"t": "/path/t.parquet", ...}, "queries": {"name": "SQL", ...}}
// OUT.json: {"name": {"columns": [...], "types": [...], "rows": [[...], ...]} or {"error": "..."}}
// Values are DuckDB's JSON forms (getRowsJson): BIGINT as a decimal string,
// DOUBLE as a number (NaN and infinities as strings), DATE as YYYY-MM-DD,
// lists as arrays, NULL as null.
import { readFileSync, writeFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const [inPath, outPath] = process.argv.slice(2);
const spec = JSON.parse(readFileSync(inPath, 'utf8'));
const inst = await DuckDBInstance.create(':memory:');
const con = await inst.connect();
for (const [name, path] of Object.entries(spec.tables)) {
  await con.run(`CREATE VIEW "${name}" AS SELECT * FROM read_parquet('${path.replaceAll("'", "''")}')`);
}
const out = {};
for (const [name, sql] of Object.entries(spec.queries)) {
  try {
    const r = await con.runAndReadAll(sql);
    out[name] = { columns: r.columnNames(), types: r.columnTypes().map(String), rows: r.getRowsJson() };
  } catch (e) {
    out[name] = { error: String(e.message ?? e) };
  }
}
writeFileSync(outPath, JSON.stringify(out));
