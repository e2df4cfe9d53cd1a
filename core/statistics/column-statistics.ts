import type { AttributeKind } from '../schema/attribute-definition.ts';

/** Per-column statistics (S-RAG paper Appendix D), stored with the table and shown to text-to-SQL. */
export interface ColumnStatistics {
  name: string;
  kind: AttributeKind;
  rowCount: number;
  nonNullCount: number;
  /** Numbers: values that are neither NULL nor 0 (Appendix D counts "non-zero and non-null"). */
  nonZeroCount?: number;
  min?: number | string;
  max?: number | string;
  mean?: number;
  /** Strings and booleans: most frequent values first, capped; `distinctCount` is the full count. */
  values?: Array<{ value: string | boolean; count: number }>;
  distinctCount?: number;
}
