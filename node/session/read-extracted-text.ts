import type { DuckDBConnection } from '@duckdb/node-api';
import type { RecordTable } from '../../app/index.ts';
import { documentText } from '../../core/index.ts';
import { findExtractedDocument, servedTable } from '../duckdb/catalog/extracted-document.ts';
import { contentHashMissing, keptContentHash } from '../duckdb/catalog/read-record-tables.ts';
import { friendlyPath } from '../runtime/friendly-path.ts';
import { hashText } from '../runtime/hash-text.ts';
import { readDocumentFile } from '../runtime/read-document-file.ts';
import { locateQuote, type QuoteSpan } from './locate-quote.ts';

/** A document's text as the model read it, with where a quote's passages are in it. */
export interface ExtractedText {
  source: string;
  /** The document as srag shows a path. */
  label: string;
  text: string;
  spans: QuoteSpan[];
}

/**
 * Why a document's text is not shown: the table was `imported` (no documents behind it), the
 * document was `not-extracted` into it (failed, unknown, or not the table's), or it `changed` or
 * is gone since it was extracted. Each edge words it.
 */
export interface TextUnavailable {
  unavailable: 'imported' | 'not-extracted' | 'changed';
  table: string;
}

/**
 * The text of `source` as the model read it when it was extracted into `table`, only when it was
 * (see `findExtractedDocument`) and only as it was: a file changed since, or replaced by a link,
 * shows nothing. `source` is a row's `_source`, or its `filename` in a table made from srag_extract,
 * whose log knows the document by its content hash.
 */
export async function readExtractedText(connection: DuckDBConnection, table: RecordTable, source: string, quote: string | undefined): Promise<ExtractedText | TextUnavailable> {
  if (table.madeBy === 'srag import') return { unavailable: 'imported', table: table.name };
  if (table.madeBy === 'srag_extract' && !keptContentHash(table)) throw contentHashMissing(table.name);
  const extracted = await findExtractedDocument(connection, servedTable(table), source);
  if (!extracted) return { unavailable: 'not-extracted', table: table.name };
  const content = await readDocumentFile(extracted.file, { shownAs: friendlyPath(source) }).catch(() => undefined);
  if (content === undefined || hashText(content) !== extracted.contentHash) return { unavailable: 'changed', table: table.name };
  const text = documentText(extracted.file, content);
  return { source, label: friendlyPath(source), text, spans: quote ? locateQuote(text, quote) : [] };
}
