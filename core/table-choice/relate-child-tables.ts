import type { RecordSchema } from '../schema/attribute-definition.ts';
import { childTableName } from '../schema/child-table-name.ts';
import type { CatalogTable } from './catalog-table.ts';

/**
 * Marks the child entities' tables among `tables` with their parent: a table named
 * `childTableName(parent, entity)` for an entity the parent's schema declares. `parents` are the
 * tables whose schemas are searched (default `tables` itself; a caller holding one table passes
 * every schema it knows, so a child asked alone still reads as a list of items).
 */
export function relateChildTables(tables: CatalogTable[], parents: ReadonlyArray<{ name: string; schema: RecordSchema }> = tables): CatalogTable[] {
  const entities = new Map<string, NonNullable<CatalogTable['parent']>>();
  for (const parent of parents) {
    for (const entity of parent.schema.entities ?? []) entities.set(childTableName(parent.name, entity.name).toLowerCase(), { table: parent.name, entity });
  }
  if (entities.size === 0) return tables;
  return tables.map((table) => {
    const parent = table.origin === 'extracted' ? entities.get(table.name.toLowerCase()) : undefined;
    return parent ? { ...table, parent } : table;
  });
}
