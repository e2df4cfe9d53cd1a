import { sqlTypeForKind } from '../schema/sql-type-for-kind.ts';
import { renderStatistics } from '../statistics/render-statistics.ts';
import type { CatalogTable } from '../table-choice/catalog-table.ts';
import type { TableLink } from '../table-choice/table-link.ts';

/**
 * One table as the text-to-SQL prompt shows it: what a row is, the columns with types, units and
 * descriptions, and the column statistics (the S-RAG paper's Appendix D) to pick exact filter values.
 */
export function renderTableForSql(table: CatalogTable): string {
  const columns = table.schema.attributes.map((attribute) => {
    const type = sqlTypeForKind[attribute.kind];
    const unit = attribute.unit ? `, ${attribute.unit}${attribute.scale && attribute.scale !== 1 ? ` × ${attribute.scale}` : ''}` : '';
    return `- "${attribute.name}" ${type}${unit}: ${attribute.description}`;
  });
  const { parent } = table;
  const heading = table.origin === 'imported'
    ? `The table \`${table.name}\` holds the rows of ${table.importedFrom ?? 'a file'}, imported as they are${table.description ? ` (${table.description})` : ''}.`
    : parent
      ? `The table \`${table.name}\` holds the ${parent.entity.name.replace(/_/g, ' ')} each document of \`${parent.table}\` lists, one row per item: ${parent.entity.description.replace(/\.$/, '')}.`
      : `The table \`${table.name}\` holds one row per document; each row was extracted from one ${table.schema.title.toLowerCase()}.`;
  if (parent) {
    columns.push(`- "_source" VARCHAR: path of the document listing the item; joins "${parent.table}"."_source" (many items per document)`);
    columns.push('- "_position" INTEGER: the item\'s place in the document\'s list, from 1');
  } else if (table.origin !== 'imported') {
    columns.push('- "_source" VARCHAR: path of the document the row was extracted from');
  }
  return [
    heading,
    '',
    'Columns (name, type, unit, description):',
    columns.join('\n'),
    '',
    'Column statistics (computed over all rows; use them to pick exact filter values):',
    renderStatistics(table.statistics),
  ].join('\n');
}

/** The join keys between the chosen tables, with what the data says about each. */
export function renderJoinKeys(joins: TableLink[]): string {
  const lines = joins.map((link) => {
    const share = link.containment >= 0.995 ? 'every' : `${Math.round(link.containment * 100)}% of the`;
    const key = link.otherUniqueness >= 0.995 ? `; "${link.otherTable}"."${link.otherColumn}" is unique` : '';
    return `- "${link.table}"."${link.column}" = "${link.otherTable}"."${link.otherColumn}" (${share} distinct "${link.column}" values occur in "${link.otherTable}"."${link.otherColumn}"${key})`;
  });
  return ['Join keys (measured on the data; join the tables on these columns):', ...lines].join('\n');
}
