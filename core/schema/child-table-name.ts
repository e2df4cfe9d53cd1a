import type { ChildEntity, RecordSchema } from './attribute-definition.ts';

/**
 * The table of a child entity: `<table>__<entity>` (`hotels__rooms`). A double underscore never
 * comes out of a title (`toSnakeCase` folds runs of separators into one), so the name cannot be
 * another schema's table by accident, and it sorts right after its parent.
 */
export function childTableName(table: string, entity: string): string {
  return `${table}__${entity}`;
}

/**
 * A child entity as a record schema of its own, for its table: the catalog, the statistics, the
 * text-to-SQL prompt and `srag why` read it as they read any table's schema. The title names the
 * items ("rooms").
 */
export function childRecordSchema(entity: ChildEntity): RecordSchema {
  return { title: entity.name.replace(/_/g, ' '), attributes: entity.attributes };
}
