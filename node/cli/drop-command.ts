import { childTableName, SragError } from '../../core/index.ts';
import { quoteIdentifier } from '../duckdb/quote-identifier.ts';
import { sragCommandLine } from '../runtime/quote-shell-argument.ts';
import { forgetTableProfile } from '../duckdb/catalog/refresh-table-profile.ts';
import { internalTableNames } from '../duckdb/store/internal-table-names.ts';
import { SragStore } from '../duckdb/store/srag-store.ts';
import { confirmOnTerminal } from './confirm-on-terminal.ts';

export interface DropCommandOptions {
  db: string;
  /** Drop without asking (required when stdin is not a terminal). */
  yes?: boolean;
}

interface DropPlan {
  /** The name as the catalog or DuckDB has it. */
  table: string;
  exists: boolean;
  rows: number;
  registered: boolean;
  logEntries: number;
  evidenceRows: number;
}

/**
 * `srag drop TABLE`: removes a record table and its catalog rows (srag_tables, srag_ingestion_log,
 * srag_evidence) in one transaction, so that no half is left behind: the catalog never names a
 * table that is gone, and a table is never left without the schema it was made with. Also repairs
 * a catalog whose table was dropped by hand. A table with child entities goes with its child
 * tables; a child table alone is refused. Asks first on a terminal; --yes skips the question.
 */
export async function dropCommand(table: string, options: DropCommandOptions, abortSignal?: AbortSignal): Promise<number> {
  if (internalTableNames.includes(table.toLowerCase())) {
    throw new SragError({ code: 'INPUT_INVALID', message: `"${table}" is one of srag's own tables, not a record table`, hint: `list the record tables with ${sragCommandLine(['stats'], options.db)}` });
  }
  const store = await SragStore.open(options.db);
  try {
    const plan = await store.exclusive((connection) => readPlan(connection, table));
    if (!plan.exists && !plan.registered) {
      const names = await store.tables();
      throw new SragError({
        code: 'TABLE_NOT_FOUND',
        message: `no table "${table}" in ${options.db}`,
        hint: names.length ? `record tables: ${names.join(', ')}` : 'the database holds no record table (pass the right --db)',
      });
    }
    const family = await store.exclusive((connection) => readFamily(connection, plan.table));
    if (family.parent) {
      throw new SragError({
        code: 'INPUT_INVALID',
        message: `"${plan.table}" holds the items of "${family.parent}"'s documents; dropped alone, those documents would count as ingested with their items gone`,
        hint: `drop the parent, which drops it too: ${sragCommandLine(['drop', family.parent], options.db)}`,
      });
    }
    const children = await store.exclusive(async (connection) => {
      const plans: DropPlan[] = [];
      for (const child of family.children) plans.push(await readPlan(connection, child));
      return plans.filter((child) => child.exists || child.registered);
    });
    const description = [describePlan(plan, options.db), ...children.map((child) => `its child table "${child.table}" (${child.rows} row${child.rows === 1 ? '' : 's'}, ${child.evidenceRows} evidence row${child.evidenceRows === 1 ? '' : 's'})`)].join(', and ');
    if (!options.yes) {
      if (!process.stdin.isTTY) {
        throw new SragError({ code: 'INPUT_INVALID', message: `srag drop asks before it deletes, and there is no terminal to ask on (it would drop ${description})`, hint: `${sragCommandLine(['drop', plan.table, '--yes'], options.db)}` });
      }
      if (!(await confirmOnTerminal(`Drop ${description}? [y/N] `, abortSignal))) {
        process.stderr.write('nothing dropped\n');
        return 1;
      }
    }
    await store.exclusive(async (connection) => {
      await connection.run('BEGIN TRANSACTION');
      try {
        for (const dropped of [plan, ...children]) {
          await connection.run(`DROP TABLE IF EXISTS ${quoteIdentifier(dropped.table)}`);
          for (const catalog of ['srag_tables', 'srag_ingestion_log', 'srag_evidence', 'srag_extractors', 'srag_imports', 'srag_batches', 'srag_batch_documents']) await connection.run(`DELETE FROM ${catalog} WHERE table_name = $1`, [dropped.table]);
          await forgetTableProfile(connection, dropped.table);
        }
        await connection.run('COMMIT');
      } catch (error) {
        await connection.run('ROLLBACK');
        throw error;
      }
    });
    process.stdout.write(`dropped ${description}\n`);
    return 0;
  } finally {
    store.close();
  }
}

async function readPlan(connection: SragStore['connection'], table: string): Promise<DropPlan> {
  const value = async (sql: string, parameters: string[] = []) => (await connection.runAndReadAll(sql, parameters)).getRowsJS()[0]?.[0];
  // DuckDB matches identifiers regardless of case; so does this.
  const catalogName = await value('SELECT table_name FROM srag_tables WHERE lower(table_name) = lower($1)', [table]);
  const tableName = await value("SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main' AND lower(table_name) = lower($1)", [table]);
  const name = String(catalogName ?? tableName ?? table);
  return {
    table: name,
    registered: catalogName !== undefined,
    exists: tableName !== undefined,
    rows: tableName !== undefined ? Number(await value(`SELECT count(*) FROM ${quoteIdentifier(String(tableName))}`)) : 0,
    logEntries: Number(await value('SELECT count(*) FROM srag_ingestion_log WHERE table_name = $1', [name])),
    evidenceRows: Number(await value('SELECT count(*) FROM srag_evidence WHERE table_name = $1', [name])),
  };
}

/**
 * The child tables `table`'s schema declares (see `childTableName`), and the table whose schema
 * declares `table` as a child, if any.
 */
async function readFamily(connection: SragStore['connection'], table: string): Promise<{ children: string[]; parent?: string }> {
  const rows = (await connection.runAndReadAll(`SELECT table_name, schema_json FROM srag_tables WHERE schema_json LIKE '%"entities"%'`)).getRowsJS();
  const family: { children: string[]; parent?: string } = { children: [] };
  for (const [name, schemaJson] of rows) {
    const entities = Object.keys((JSON.parse(String(schemaJson)) as { entities?: Record<string, unknown> }).entities ?? {});
    for (const entity of entities) {
      const child = childTableName(String(name), entity);
      if (String(name) === table) family.children.push(child);
      else if (child.toLowerCase() === table.toLowerCase()) family.parent = String(name);
    }
  }
  return family;
}

function describePlan(plan: DropPlan, databasePath: string): string {
  const table = plan.exists ? `table "${plan.table}" (${plan.rows} row${plan.rows === 1 ? '' : 's'})` : `the catalog rows of table "${plan.table}" (the table itself is already gone)`;
  const catalog = plan.registered
    ? `${plan.exists ? ' and its catalog rows' : ''}: schema and statistics, ${plan.logEntries} ingestion-log entr${plan.logEntries === 1 ? 'y' : 'ies'}, ${plan.evidenceRows} evidence row${plan.evidenceRows === 1 ? '' : 's'}`
    : ' (not made by srag ingest: no catalog rows)';
  return `${table}${catalog} from ${databasePath}`;
}
