import { SragError, sqlTypeForKind, type AttributeDefinition, type AttributeKind, type RecordSchema } from '../../../core/index.ts';
import type { InMemoryTable } from '../../../records-sql/index.ts';
import { fromCellValue, isDate } from '../sheets/cell-values.ts';
import { recordColumns } from '../sheets/sheet-layout.ts';

const bookkeeping = new Set<string>([recordColumns.status, recordColumns.error, recordColumns.contentHash]);

export interface RecordsRangeTable {
  /** The columns as attributes (for the SQL prompt and the statistics); `_source` is not one. */
  schema: RecordSchema;
  table: InMemoryTable;
  /** The same rows keyed by column name, for `computeStatistics`. */
  rows: Array<Record<string, string | number | boolean | null>>;
  /**
   * Per row, the attributes its `_error` cell names: the Sheets store writes one line
   * "attribute: message" per value it dropped (or kept from parts that disagree). Undefined when
   * the range has no `_error` column, so a blank cell cannot be told missing from dropped.
   */
  issues: Array<Set<string>> | undefined;
}

/**
 * A records range (header row first) as a typed SQL table. Columns named like a Schema attribute
 * take its type and description; other columns get a type from their values. With a `_status`
 * column only `done` rows count, as only extracted records are in the DuckDB table.
 */
export function recordsRangeTable(values: unknown[][], known: Map<string, AttributeDefinition>, title: string, timeZone: string): RecordsRangeTable {
  if (!Array.isArray(values) || values.length === 0 || !Array.isArray(values[0])) {
    throw new SragError({ code: 'INPUT_INVALID', message: 'records_range must be a table with its header row', hint: 'e.g. =SRAG_ASK("How many hotels are in Spain?", Records!A1:R)' });
  }
  const header = values[0]!.map((cell) => columnName(String(cell ?? '')));
  const statusColumn = header.indexOf(recordColumns.status);
  const errorColumn = header.indexOf(recordColumns.error);
  const used = new Set<string>();
  const columns: Array<{ index: number; name: string }> = [];
  header.forEach((name, index) => {
    if (!name || bookkeeping.has(name) || used.has(name)) return;
    used.add(name);
    columns.push({ index, name });
  });
  const dataRows = values.slice(1).filter((row) => {
    if (row.every((cell) => cell === '' || cell === null || cell === undefined)) return false;
    return statusColumn < 0 || String(row[statusColumn] ?? '').trim().toLowerCase() === 'done';
  });
  const attributes: AttributeDefinition[] = [];
  const tableColumns: InMemoryTable['columns'] = [];
  const kinds = columns.map(({ index, name }) => {
    if (name === recordColumns.source) return 'string' as AttributeKind;
    const attribute = known.get(name);
    const kind = attribute?.kind ?? inferKind(dataRows.map((row) => row[index]));
    attributes.push(attribute ?? { name, kind, description: `The column "${String(values[0]![index])}" of the records range.`, examples: [] });
    return kind;
  });
  columns.forEach(({ name }, position) => tableColumns.push({ name, type: sqlTypeForKind[kinds[position]!] }));
  const rows = dataRows.map((row) => Object.fromEntries(columns.map(({ index, name }, position) => [name, fromCellValue(row[index], kinds[position]!, timeZone)])));
  return {
    schema: { title, attributes },
    table: { columns: tableColumns, rows: rows.map((row) => columns.map(({ name }) => row[name] ?? null)) },
    rows,
    issues: errorColumn < 0 ? undefined : dataRows.map((row) => issueAttributes(String(row[errorColumn] ?? ''))),
  };
}

/** The attributes an `_error` cell names, one per line ("price_per_night: the quote does not occur …"). */
function issueAttributes(cell: string): Set<string> {
  return new Set(cell.split('\n').map((line) => /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:/.exec(line)?.[1]?.toLowerCase()).filter((name): name is string => name !== undefined));
}

/** A header as a SQL column name: "Hotel Name" → hotel_name (attribute names pass unchanged). */
function columnName(header: string): string {
  const trimmed = header.trim();
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(trimmed)) return trimmed.toLowerCase();
  const snake = trimmed.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return snake && /^[0-9]/.test(snake) ? `c_${snake}` : snake;
}

function inferKind(cells: unknown[]): AttributeKind {
  const present = cells.filter((cell) => cell !== '' && cell !== null && cell !== undefined);
  if (present.length === 0) return 'string';
  if (present.every((cell) => typeof cell === 'boolean')) return 'boolean';
  if (present.every(isDate)) return 'date';
  if (present.every((cell) => typeof cell === 'number')) return present.every((cell) => Number.isInteger(cell)) ? 'integer' : 'number';
  return 'string';
}
