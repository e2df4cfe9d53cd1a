import { parseRecordSchema, relateChildTables, type ColumnStatistics, type RecordSchema } from '../../core/index.ts';
import type { RecordTable } from './record-table.ts';
import type { TableSnapshot } from './table-snapshot.ts';

/**
 * Every table of the snapshot a question may be answered from, whatever made it, in name order:
 * those `srag ingest` or `srag import` registered (their schemas and statistics kept), and those
 * made from `srag_extract`'s rows — a `filename` column and a schema `srag_extract` recorded that
 * shares the most attribute names with the table, cut down to the attributes it kept. A child
 * entity's table is marked with its parent. A table nothing explains is left out.
 */
export function recordTables(snapshot: TableSnapshot): RecordTable[] {
  const registered = new Map(snapshot.knownSchemas.filter((known) => known.origin === 'srag_tables').map((known) => [known.name.toLowerCase(), known]));
  const imports = new Map(snapshot.imports.map((entry) => [entry.name.toLowerCase(), entry]));
  const extractSchemas = snapshot.knownSchemas.filter((known) => known.origin === 'srag_extract')
    .map((known) => ({ key: known.name, schema: parseRecordSchema(JSON.parse(known.schemaJson), `schema ${known.name}`) }));
  const tables = snapshot.tables.flatMap((table): RecordTable[] => {
    const known = registered.get(table.name.toLowerCase());
    if (known) {
      const imported = imports.get(table.name.toLowerCase());
      return [{
        name: table.name,
        schema: parseRecordSchema(JSON.parse(known.schemaJson), `table "${known.name}"`),
        statistics: known.statisticsJson ? (JSON.parse(known.statisticsJson) as ColumnStatistics[]) : [],
        statisticsKept: true,
        origin: imported ? 'imported' : 'extracted',
        madeBy: imported ? 'srag import' : 'srag ingest',
        ...(imported ? { importedFrom: imported.file } : {}),
        ...(imported?.description ? { description: imported.description } : {}),
        columns: table.columns,
        aliases: [],
        evidence: imported ? null : { name: table.name },
      }];
    }
    const columns = new Set(table.columns.map((column) => column.name));
    if (!columns.has('filename')) return [];
    let best: { key: string; schema: RecordSchema; overlap: number } | undefined;
    for (const { key, schema } of extractSchemas) {
      const overlap = schema.attributes.filter((attribute) => columns.has(attribute.name)).length;
      if (overlap > 0 && (!best || overlap > best.overlap)) best = { key, schema, overlap };
    }
    if (!best) return [];
    const aliased = !columns.has('_source');
    return [{
      name: table.name,
      schema: { ...best.schema, attributes: best.schema.attributes.filter((attribute) => columns.has(attribute.name)) },
      statistics: [],
      statisticsKept: false,
      origin: 'extracted',
      madeBy: 'srag_extract',
      columns: table.columns,
      aliases: aliased ? [{ name: '_source', of: 'filename' }] : [],
      evidence: { name: best.key, ...(aliased && columns.has('content_hash') && best.key !== table.name ? { copyOf: table.name } : {}) },
    }];
  });
  // A child's parent may be any registered table, chosen or not: a child asked alone still reads as a list of items.
  const parents = [...registered.values()].filter((known) => known.schemaJson.includes('"entities"'))
    .map((known) => ({ name: known.name, schema: parseRecordSchema(JSON.parse(known.schemaJson), `table "${known.name}"`) }));
  return relateChildTables(tables, parents) as RecordTable[];
}
