import { SragError } from '../../core/index.ts';
import type { TableExporter, TableSource } from '../ports/table-source.ts';
import type { RecordTable } from '../tables/record-table.ts';

/**
 * The sandbox's view of the chosen tables: their columns as the snapshot read them, rows and
 * evidence written by `exporter` (each table's evidence from where it is kept).
 */
export function recordTableSource(tables: readonly RecordTable[], exporter: TableExporter): TableSource {
  const byName = new Map(tables.map((table) => [table.name.toLowerCase(), table]));
  const find = (name: string): RecordTable => {
    const table = byName.get(name.toLowerCase());
    if (!table) throw new SragError({ code: 'TABLE_NOT_FOUND', message: `the question is asked of ${tables.map((candidate) => `"${candidate.name}"`).join(', ')} only, not "${name}"` });
    return table;
  };
  return {
    describeTable: async (name) => {
      const table = find(name);
      return { columns: table.columns, aliases: table.aliases };
    },
    exportTable: (name, columns, file) => exporter.exportTable(find(name).name, columns, file),
    exportEvidence: async (name, attributes, file) => {
      const table = find(name);
      if (!table.evidence) throw new SragError({ code: 'TABLE_NOT_FOUND', message: `no evidence is kept for "${table.name}"` });
      return exporter.exportEvidence(table.evidence, attributes, file);
    },
  };
}
