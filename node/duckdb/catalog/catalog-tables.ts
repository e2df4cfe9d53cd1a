/**
 * What srag keeps about its tables so that a question can find the ones it needs (the ARM
 * paper's index): the files tables were imported from, per column a profile (non-null and
 * distinct counts), a bottom-k sketch of value hashes (for value overlap between columns), the
 * most frequent values as phrases (for matching the question's words), and the links between
 * columns whose values meet. All of it is rebuilt for a table when it is ingested or imported.
 */
export const catalogTablesSql = `
CREATE TABLE IF NOT EXISTS srag_imports (
  table_name VARCHAR PRIMARY KEY,
  file VARCHAR NOT NULL,
  format VARCHAR NOT NULL,
  description VARCHAR,
  imported_at TIMESTAMP DEFAULT current_timestamp
);
CREATE TABLE IF NOT EXISTS srag_column_profiles (
  table_name VARCHAR NOT NULL,
  column_name VARCHAR NOT NULL,
  data_type VARCHAR NOT NULL,
  non_null BIGINT NOT NULL,
  distinct_count BIGINT NOT NULL,
  sketch_threshold UBIGINT
);
CREATE TABLE IF NOT EXISTS srag_column_sketches (
  table_name VARCHAR NOT NULL,
  column_name VARCHAR NOT NULL,
  value_hash UBIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS srag_column_values (
  table_name VARCHAR NOT NULL,
  column_name VARCHAR NOT NULL,
  phrase VARCHAR NOT NULL
);
CREATE TABLE IF NOT EXISTS srag_table_links (
  table_name VARCHAR NOT NULL,
  column_name VARCHAR NOT NULL,
  other_table VARCHAR NOT NULL,
  other_column VARCHAR NOT NULL,
  containment DOUBLE NOT NULL,
  other_uniqueness DOUBLE NOT NULL,
  shared_values BIGINT NOT NULL
);
`;

/** The catalog tables that hold rows per table (by `table_name`), cleared when a table is dropped. */
export const catalogTableNames: readonly string[] = ['srag_imports', 'srag_column_profiles', 'srag_column_sketches', 'srag_column_values', 'srag_table_links'];
