import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { expect } from 'vitest';
import type { SqlValue } from '../../../core/index.ts';
import { readSqlResult } from '../../../node/duckdb/read-sql-result.ts';
import { InMemorySqlEngine } from '../../../records-sql/index.ts';
import { createDuckDbTable, type GoldRecordTable } from './gold-record-tables.ts';

export type Outcome = { rows: SqlValue[][] } | { error: string };

async function outcome(run: () => Promise<{ rows: SqlValue[][] }>): Promise<Outcome> {
  try {
    return { rows: (await run()).rows };
  } catch (error) {
    return { error: (error as Error).message.split('\n')[0]! };
  }
}

/** The same value: numbers exactly (0 and -0 alike, NaN as DuckDB's "NaN"), anything else strictly. */
export function sameValue(left: SqlValue, right: SqlValue): boolean {
  return left === right || (typeof left === 'number' && typeof right === 'number' && Number.isNaN(left) && Number.isNaN(right));
}

/** The same rows in the same order, value by value with `sameValue`: no tolerance, a DECIMAL is exact. */
export function sameRows(left: SqlValue[][], right: SqlValue[][]): boolean {
  return left.length === right.length && left.every((row, index) => row.length === right[index]!.length && row.every((value, column) => sameValue(value, right[index]![column]!)));
}

/** records-sql's way to say it will not answer rather than answer differently (`unsupportedFeature`). */
export const isRefusal = (error: string) => error.startsWith('Not implemented Error:') && error.includes('spreadsheet SQL engine');

/**
 * An in-process DuckDB and a records-sql engine over the same table, for tests that run one query
 * through both. `load` replaces the table in both.
 */
export class BothEngines {
  private engine = new InMemorySqlEngine({});
  private table = '';

  private constructor(private readonly connection: DuckDBConnection) {}

  static async open(): Promise<BothEngines> {
    return new BothEngines(await (await DuckDBInstance.create(':memory:')).connect());
  }

  async load(table: GoldRecordTable): Promise<void> {
    await this.connection.run(`DROP TABLE IF EXISTS ${table.table}`);
    await createDuckDbTable(this.connection, table);
    this.engine = new InMemorySqlEngine({ [table.table]: table.records });
    this.table = table.table;
  }

  async run(sql: string): Promise<{ duckdb: Outcome; records: Outcome }> {
    const duckdb = await outcome(async () => readSqlResult(await this.connection.runAndReadAll(sql)));
    const records = await outcome(() => this.engine.runReadOnlyQuery(sql, this.table ? [this.table] : []));
    return { duckdb, records };
  }

  /** Expects DuckDB to give `expected`, and records-sql the same. */
  async expectAnswer(sql: string, expected: SqlValue[][]): Promise<void> {
    const { duckdb, records } = await this.run(sql);
    expect(duckdb).toEqual({ rows: expected });
    expect(records).toEqual({ rows: expected });
  }

  close(): void {
    this.connection.closeSync();
  }
}
