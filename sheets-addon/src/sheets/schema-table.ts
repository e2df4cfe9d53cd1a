import { parseRecordSchema, SchemaInvalidError, type AttributeKind, type RecordSchema } from '../../../core/index.ts';
import { isDate } from './cell-values.ts';
import { schemaHeader } from './sheet-layout.ts';

const kindWords: Record<string, AttributeKind> = {
  string: 'string', text: 'string', varchar: 'string',
  number: 'number', decimal: 'number', double: 'number', float: 'number',
  integer: 'integer', int: 'integer', 'whole number': 'integer', bigint: 'integer',
  boolean: 'boolean', bool: 'boolean', 'yes/no': 'boolean',
  date: 'date',
};

const headerAliases: Record<string, string[]> = {
  attribute: ['attribute', 'name', 'column', 'property'],
  type: ['type', 'kind'],
  description: ['description'],
  examples: ['examples', 'example'],
  unit: ['unit', 'units'],
  scale: ['scale'],
};

/**
 * The record schema in a Schema table (header row first, one attribute per row): checked by
 * core's `parseRecordSchema`, so a sheet edited by hand fails with the same messages as a JSON file.
 * Examples are one per line in their cell.
 */
export function readSchemaTable(values: unknown[][], title: string): RecordSchema {
  const header = (values[0] ?? []).map((cell) => String(cell).trim().toLowerCase());
  const column = (field: string) => header.findIndex((name) => headerAliases[field]!.includes(name));
  const positions = Object.fromEntries(Object.keys(headerAliases).map((field) => [field, column(field)])) as Record<string, number>;
  if (positions.attribute! < 0 || positions.type! < 0 || positions.description! < 0) {
    throw new SchemaInvalidError({
      message: `the schema range needs a header row with ${schemaHeader.join(', ')}`,
      source: 'Schema sheet',
      hint: 'pass the whole table including its header, e.g. Schema!A1:E15',
    });
  }
  const properties: Record<string, unknown> = {};
  values.slice(1).forEach((row, index) => {
    const cell = (field: string) => (positions[field]! >= 0 ? row[positions[field]!] : '');
    const name = String(cell('attribute') ?? '').trim();
    if (!name) return;
    const typeWord = String(cell('type') ?? '').trim().toLowerCase();
    const kind = kindWords[typeWord];
    if (!kind) {
      throw new SchemaInvalidError({
        message: `Schema row ${index + 2}: "${name}" has the type "${typeWord}"`,
        property: name,
        source: 'Schema sheet',
        hint: 'use string, number, integer, boolean or date',
      });
    }
    const property: Record<string, unknown> = kind === 'date' ? { type: 'string', format: 'date' } : { type: kind };
    property.description = String(cell('description') ?? '').trim();
    property.examples = readExamples(cell('examples'), kind);
    const unit = String(cell('unit') ?? '').trim();
    if (unit) property.unit = unit;
    const scale = cell('scale');
    if (scale !== '' && scale !== undefined && scale !== null) property.scale = typeof scale === 'number' ? scale : String(scale).trim();
    properties[name] = property;
  });
  return parseRecordSchema({ title, properties }, 'Schema sheet');
}

/** The Schema table for `schema`, header first; examples one per line. */
export function schemaTableValues(schema: RecordSchema): Array<Array<string | number>> {
  return [
    [...schemaHeader],
    ...schema.attributes.map((attribute) => [
      attribute.name,
      attribute.kind,
      attribute.description,
      attribute.examples.map(String).join('\n'),
      attribute.unit ?? '',
    ]),
  ];
}

function readExamples(cell: unknown, kind: AttributeKind): Array<string | number | boolean> {
  if (cell === '' || cell === null || cell === undefined) return [];
  if (typeof cell === 'number' || typeof cell === 'boolean') return [cell];
  if (isDate(cell)) return [cell.toISOString().slice(0, 10)];
  return String(cell)
    .split(/\n| \| /)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      if (kind === 'number' || kind === 'integer') {
        const number = Number(part.replace(/,/g, ''));
        return Number.isFinite(number) ? number : part;
      }
      if (kind === 'boolean') return /^(true|yes)$/i.test(part) ? true : /^(false|no)$/i.test(part) ? false : part;
      return part;
    });
}
