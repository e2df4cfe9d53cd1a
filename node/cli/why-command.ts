import { codeReason, countNoun } from '../../core/index.ts';
import { quotePageNote } from '../runtime/documents/quote-page-note.ts';
import { explainValue } from '../duckdb/explain-value.ts';
import { friendlyPath } from '../runtime/friendly-path.ts';
import { SragStore } from '../duckdb/store/srag-store.ts';
import { terminalText } from './terminal-text.ts';

/**
 * `srag why <document> <attribute>`: the value, its status and the quote it was read from (see
 * `explainValue`), as lines for a terminal.
 */
export async function whyCommand(document: string, attribute: string, options: { db: string; table?: string }): Promise<number> {
  const store = await SragStore.open(options.db, { mustExist: true });
  try {
    const { source, value, raw, quote, status, reason, otherMatches } = await explainValue(store.connection, { document, attribute, table: options.table, database: options.db });
    // Every part but srag's own words comes from a document, its file name or a model reply: escaped.
    process.stdout.write([
      `${terminalText(friendlyPath(source))} · ${terminalText(attribute)} = ${terminalText(value ?? 'NULL')} (${terminalText(status)})`,
      raw !== null ? `${reason === codeReason ? 'synthesized extractor' : 'model'} returned: ${terminalText(raw)}` : undefined,
      quote !== null ? `quote: “${terminalText(quote)}”${await quotePageNote(source, quote)}` : status === 'unchecked' ? 'quote: none (ingested with --no-evidence)' : 'quote: none',
      reason !== null ? `reason: ${terminalText(reason)}` : undefined,
      otherMatches > 0 ? `(${countNoun(otherMatches, 'other document')} also ${otherMatches === 1 ? 'matches' : 'match'} "${terminalText(document)}")` : undefined,
      '',
    ].filter((line) => line !== undefined).join('\n'));
    return 0;
  } finally {
    store.close();
  }
}
