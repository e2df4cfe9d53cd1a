/** What is wrong with a schema, one kind per code; the text a user reads comes from `renderSchemaProblem`. */
export type SchemaProblemCode =
  | 'invalid_json'
  | 'duplicate_key'
  | 'not_an_object'
  | 'missing_key'
  | 'unknown_key'
  | 'invalid_value'
  | 'unusable_name'
  | 'reserved_name'
  | 'case_clash'
  | 'nested_object'
  | 'list'
  | 'unit_not_converted';

/**
 * One problem of a schema document, as data: where (`property`, `key`), what is wrong, and the fix.
 * A schema's problems are all collected before any is reported, so one run shows every one.
 */
export interface SchemaProblem {
  code: SchemaProblemCode;
  /** The child entity at fault, or the one whose property is (see `ChildEntity`). */
  entity?: string;
  /** The property at fault; absent for the document's own keys ("title", "properties"). */
  property?: string;
  /** The key at fault, e.g. "unit" or "descripton"; absent when the whole property is at fault. */
  key?: string;
  /** What is wrong, e.g. `"furlongs" is not a unit srag converts`. */
  problem: string;
  /** How to fix it, e.g. `use one of mm, cm, m, km`. */
  fix: string;
}
