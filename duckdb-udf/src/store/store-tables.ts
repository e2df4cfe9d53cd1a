/**
 * The bookkeeping tables srag keeps beside the record tables in one DuckDB file. Statements that
 * change an existing file's tables (`ADD COLUMN IF NOT EXISTS`) bring files of earlier versions up
 * to date when they are opened.
 */
export const storeTablesSql = `
CREATE TABLE IF NOT EXISTS srag_tables (
  table_name VARCHAR PRIMARY KEY,
  title VARCHAR NOT NULL,
  schema_json VARCHAR NOT NULL,
  statistics_json VARCHAR,
  updated_at TIMESTAMP DEFAULT current_timestamp
);
CREATE TABLE IF NOT EXISTS srag_ingestion_log (
  table_name VARCHAR NOT NULL,
  source VARCHAR NOT NULL,
  content_hash VARCHAR NOT NULL,
  status VARCHAR NOT NULL,
  error VARCHAR,
  attempts INTEGER NOT NULL,
  updated_at TIMESTAMP DEFAULT current_timestamp,
  PRIMARY KEY (table_name, source)
);
CREATE TABLE IF NOT EXISTS srag_evidence (
  table_name VARCHAR NOT NULL,
  source VARCHAR NOT NULL,
  attribute VARCHAR NOT NULL,
  value VARCHAR,
  raw VARCHAR,
  quote VARCHAR,
  status VARCHAR NOT NULL,
  reason VARCHAR,
  PRIMARY KEY (table_name, source, attribute)
);
CREATE TABLE IF NOT EXISTS srag_cache (
  key VARCHAR PRIMARY KEY,
  model VARCHAR NOT NULL,
  response VARCHAR NOT NULL,
  prompt_tokens BIGINT NOT NULL,
  completion_tokens BIGINT NOT NULL,
  created_at TIMESTAMP DEFAULT current_timestamp
);
ALTER TABLE srag_cache ADD COLUMN IF NOT EXISTS purpose VARCHAR;
CREATE TABLE IF NOT EXISTS srag_extract_schemas (
  schema_key VARCHAR PRIMARY KEY,
  title VARCHAR NOT NULL,
  schema_json VARCHAR NOT NULL,
  created_at TIMESTAMP DEFAULT current_timestamp
);
CREATE SCHEMA IF NOT EXISTS srag_extract;
CREATE TABLE IF NOT EXISTS srag_journal (
  sequence BIGINT NOT NULL,
  entry VARCHAR NOT NULL
);
`;
