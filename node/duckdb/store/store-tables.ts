import { catalogTablesSql } from '../catalog/catalog-tables.ts';

/**
 * The bookkeeping tables srag keeps beside the record tables in one DuckDB file.
 *
 * srag_evidence has no key (files made before it have one, which is kept): no write or read looks
 * its rows up by one, and one evidence row per document and attribute is kept by the writes
 * (`writeRecords` replaces a document's evidence with its row, whose key refuses a second row).
 * Its index cost a third of writing the evidence, more per row as the table grew (50,000
 * documents' 700,000 rows in commits of 1,000 documents: 12.2 s of CPU with it, 8.1 s without).
 *
 * srag_cache has no key either (files made before have one, which is kept): a reply is written
 * only under a key the table does not hold yet (`writeCacheEntries`), and lookups join on the
 * key, which reads the column whole with or without an index. A table with an index keeps every
 * append in its last row group (its row ids must not move), and each checkpoint rewrites that row
 * group whole: with replies of ~10 KB, up to 122,880 of them — a million pages' 111,000 replies
 * were one row group of ~1 GB, rewritten at each of the apply's checkpoints (30,000 replies
 * written 125 at a time: 1.4–2.4 s and +70–100 MB a checkpoint with the key, ~0.07 s and
 * +0–36 MB without, whose appends become row groups of their own).
 *
 * srag_cache keeps each reply deflated (`response_deflated`, see `deflateReplyText`); `response`
 * holds the text of the rows an older srag wrote.
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
  attribute_hashes VARCHAR,
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
  reason VARCHAR
);
CREATE TABLE IF NOT EXISTS srag_cache (
  key VARCHAR NOT NULL,
  model VARCHAR NOT NULL,
  response VARCHAR,
  prompt_tokens BIGINT NOT NULL,
  completion_tokens BIGINT NOT NULL,
  created_at TIMESTAMP DEFAULT current_timestamp,
  purpose VARCHAR,
  endpoint VARCHAR,
  request_key VARCHAR,
  response_deflated BLOB
);
CREATE TABLE IF NOT EXISTS srag_extract_schemas (
  schema_key VARCHAR PRIMARY KEY,
  title VARCHAR NOT NULL,
  schema_json VARCHAR NOT NULL,
  created_at TIMESTAMP DEFAULT current_timestamp
);
CREATE TABLE IF NOT EXISTS srag_extractors (
  table_name VARCHAR NOT NULL,
  attribute VARCHAR NOT NULL,
  definition VARCHAR NOT NULL,
  source VARCHAR NOT NULL,
  status VARCHAR NOT NULL,
  reason VARCHAR,
  checked_documents INTEGER NOT NULL,
  quote_boundaries VARCHAR NOT NULL,
  created_at TIMESTAMP DEFAULT current_timestamp,
  PRIMARY KEY (table_name, attribute)
);
CREATE TABLE IF NOT EXISTS srag_batches (
  batch_id VARCHAR PRIMARY KEY,
  table_name VARCHAR NOT NULL,
  submission VARCHAR NOT NULL,
  status VARCHAR NOT NULL,
  request_count BIGINT NOT NULL,
  run_options VARCHAR NOT NULL DEFAULT '{}',
  submitted_at TIMESTAMP DEFAULT current_timestamp,
  collected_at TIMESTAMP
);
CREATE TABLE IF NOT EXISTS srag_batch_documents (
  submission VARCHAR NOT NULL,
  table_name VARCHAR NOT NULL,
  source VARCHAR NOT NULL,
  position BIGINT NOT NULL,
  waiting BOOLEAN NOT NULL
);
CREATE TABLE IF NOT EXISTS srag_endpoint_adaptations (
  endpoint VARCHAR NOT NULL,
  model VARCHAR NOT NULL,
  adaptation VARCHAR NOT NULL,
  updated_at TIMESTAMP DEFAULT current_timestamp,
  PRIMARY KEY (endpoint, model)
);
CREATE SCHEMA IF NOT EXISTS srag_extract;
CREATE TABLE IF NOT EXISTS srag_journal (
  sequence BIGINT NOT NULL,
  entry VARCHAR NOT NULL
);
CREATE TABLE IF NOT EXISTS srag_journal_applied (through BIGINT NOT NULL);
${catalogTablesSql}`;

/**
 * Brings a file of an earlier version up to date: columns added since (a new file has them from
 * its CREATE TABLE, in the same places: last, in this order). Each change is checkpointed
 * at once — DuckDB 1.5 cannot replay an `ALTER TABLE … ADD COLUMN` of a table with a DEFAULT from
 * its write-ahead log, so a crash before the next checkpoint would leave a file it cannot open.
 */
export const addedColumns = [
  { table: 'srag_cache', column: 'purpose', type: 'VARCHAR' },
  // NULL in rows of the first version: no definition matches, so those extractors are written anew.
  { table: 'srag_extractors', column: 'definition', type: 'VARCHAR' },
  // A JSON list of the attribute definitions a `done` record holds (column-level incremental
  // extraction); NULL in files of earlier versions until `registerTable` fills it from the table's schema.
  { table: 'srag_ingestion_log', column: 'attribute_hashes', type: 'VARCHAR' },
  // The endpoint that gave a reply (its base URL without credentials or query) and the request's key
  // without it. NULL in rows an older srag wrote: their endpoint is unknown, so they are served only
  // to a session with no endpoint configured (by key, which was the request key then).
  { table: 'srag_cache', column: 'endpoint', type: 'VARCHAR' },
  { table: 'srag_cache', column: 'request_key', type: 'VARCHAR' },
  // The reply deflated (see `deflateReplyText`), `response` then NULL: the rows an older srag wrote keep their text there.
  { table: 'srag_cache', column: 'response_deflated', type: 'BLOB', then: 'ALTER TABLE srag_cache ALTER COLUMN response DROP NOT NULL' },
] as const satisfies ReadonlyArray<{ table: string; column: string; type: string; then?: string }>;
