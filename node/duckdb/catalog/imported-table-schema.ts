import type { AttributeKind, RecordSchema } from '../../../core/index.ts';

/** One column of an imported file: its name in the file, its name in the table, its DuckDB type. */
export interface ImportedColumn {
  header: string;
  name: string;
  type: string;
}

const kindOfType: Record<string, AttributeKind> = {
  VARCHAR: 'string', BOOLEAN: 'boolean', DATE: 'date', DOUBLE: 'number', FLOAT: 'number',
  TINYINT: 'integer', SMALLINT: 'integer', INTEGER: 'integer', BIGINT: 'integer', HUGEINT: 'integer',
  UTINYINT: 'integer', USMALLINT: 'integer', UINTEGER: 'integer', UBIGINT: 'integer',
};

/** The kind a column of this DuckDB type is kept as; a type srag has no kind for is kept as text. */
export function kindOfColumnType(type: string): AttributeKind {
  return kindOfType[type] ?? (type.startsWith('DECIMAL') ? 'number' : 'string');
}

/**
 * The schema an imported table is described by, so that every command that reads a table's schema
 * (text-to-SQL, `srag stats`, `srag_ask`) reads one: the columns as the file has them, each
 * described by its header and the file, with no unit and no normal form (nothing was extracted).
 */
export function importedTableSchema(table: string, file: string, columns: ImportedColumn[]): RecordSchema {
  return {
    title: table.replace(/_/g, ' '),
    attributes: columns.map((column) => ({
      name: column.name,
      kind: kindOfColumnType(column.type),
      description: `column "${column.header}" of ${file}, as the file has it`,
      examples: [],
    })),
  };
}
