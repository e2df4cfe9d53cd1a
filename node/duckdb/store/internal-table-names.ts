import { catalogTableNames } from '../catalog/catalog-tables.ts';

/** srag's own bookkeeping tables (the store's, the harness's and srag serve's): never a record table to ask, drop or list as one. */
export const internalTableNames: readonly string[] = ['srag_tables', 'srag_ingestion_log', 'srag_evidence', 'srag_cache', 'srag_extract_schemas', 'srag_extractors', 'srag_batches', 'srag_batch_documents', 'srag_endpoint_adaptations', 'srag_serve_jobs', 'srag_journal', 'srag_journal_applied', ...catalogTableNames];
