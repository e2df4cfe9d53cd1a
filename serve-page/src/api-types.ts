import type { ColumnCoverage } from '../../core/coverage/column-coverage.ts';
import type { ErrorFix } from '../../core/errors/error-fix.ts';
import type { TracedColumn } from '../../node/duckdb/sandbox/read-trace-plan.ts';

// The JSON the server answers with, as the page reads it (node/serve/*-routes.ts write it).

export type Value = string | number | boolean | null;
export type { TracedColumn };
export type TableMaker = 'srag ingest' | 'srag import' | 'srag_extract';

export interface Attribute {
  name: string;
  kind: string;
  unit?: string;
  description?: string;
}

/** A table as GET /tables describes it. */
export interface TableDetail {
  name: string;
  madeBy: TableMaker;
  title: string;
  attributes: Attribute[];
  entities: Array<{ name: string }>;
  parent?: string;
  importedFrom?: string;
  description?: string;
}

export interface Join {
  table: string;
  column: string;
  otherTable: string;
  otherColumn: string;
}

/** POST /query: `srag ask --json`'s answer, and the id it is kept under. */
export interface AnswerBody {
  id: string;
  answer: string;
  sql: string;
  tables: string[];
  joins: Join[];
  columns: string[];
  rows: Value[][];
  cut?: { rowsOmitted: boolean; cellsShortened: number; maximumRows: number; maximumCellCharacters: number };
  coverage: ColumnCoverage[] | null;
  usage: { calls: number; promptTokens: number; completionTokens: number };
  path: 'sql' | 'hybrid';
  documents?: string[];
  selectedDocuments?: number;
  documentProblems?: Array<{ message: string }>;
  added_attributes?: string[];
}

/** GET /records. */
export interface RecordsBody {
  table: string;
  madeBy: TableMaker;
  columns: string[];
  rows: Value[][];
  total: number;
  labels: string[];
  document: string | null;
  position: string | null;
}

/** GET /answers/{id}/records. */
export type TraceBody = { answer: string; row: number | null; untraceable: string } | {
  answer: string;
  row: number | null;
  narrowing: 'all' | 'group' | 'row';
  note?: string;
  columns: TracedColumn[];
  rows: Value[][];
  total: number;
  offset: number;
};

/** GET /why. */
export interface WhyBody {
  table: string;
  source: string;
  attribute: string;
  value: string | null;
  raw: string | null;
  quote: string | null;
  status: string;
  reason: string | null;
}

/** GET /document. */
export interface DocumentBody {
  source: string;
  label: string;
  text: string;
  spans: Array<{ start: number; end: number }>;
}

/** Every error: `{error: {code, message, hint?, fix?}}`. */
export interface ErrorBody {
  error: { code: string; message: string; hint?: string; fix?: ErrorFix };
}
