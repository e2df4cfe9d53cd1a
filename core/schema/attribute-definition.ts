/** The kinds of value a record column can hold; a date is a JSON string with `format: "date"`. */
export type AttributeKind = 'string' | 'number' | 'integer' | 'boolean' | 'date';

export type ExampleValue = string | number | boolean;

/**
 * One flat, typed attribute of the record schema (S-RAG paper §3.1: "a primitive attribute with a
 * predefined type"). Lists and nested objects are excluded, as in the paper's footnote 3.
 */
export interface AttributeDefinition {
  /** Column name, exactly as the schema's property name. */
  name: string;
  kind: AttributeKind;
  /** Fixes meaning, unit and normal form; it is what keeps values comparable across documents. */
  description: string;
  examples: ExampleValue[];
  /**
   * For numbers: the unit stored values are in, e.g. `USD`, `metres`, `km`, `percent`, `minutes`.
   * A raw value in another unit of the same dimension is converted; one of another currency or
   * dimension becomes NULL with an issue.
   */
  unit?: string;
  /**
   * For numbers: the multiplier of stored values, e.g. 1e6 when the column holds millions of USD.
   * The S-RAG paper, §6: a column that held 1 for both 1M and 1B is what this prevents.
   */
  scale?: number;
}

export interface RecordSchema {
  title: string;
  attributes: AttributeDefinition[];
  /**
   * One-to-many entities each document lists (rooms of a hotel, matches of a tournament), each
   * extracted in the same call into a table of its own, one row per item, keyed to the document's
   * row: the flat per-table rule stays, the relation is explicit. Absent when there are none.
   */
  entities?: ChildEntity[];
}

/**
 * A list of items a document holds, declared under `"entities"` in the schema file:
 * `"rooms": {"description": "…", "properties": {…}}`. Its attributes are defined exactly as the
 * top-level ones; its rows go to the table `childTableName(table, name)`.
 */
export interface ChildEntity {
  /** snake_case: the key of the list in the model's reply and the suffix of the table's name. */
  name: string;
  /** What one item is, and which items the list holds (e.g. "every room type with its own price"). */
  description: string;
  attributes: AttributeDefinition[];
}
