import { codeReason, countNoun } from '../../../core/index.ts';
import { quotePageNote } from '../documents/quote-page-note.ts';
import { explainValue } from '../explain-value.ts';
import { friendlyPath } from '../friendly-path.ts';
import { SragStore } from '../store/srag-store.ts';

/**
 * `srag why <document> <attribute>`: the value, its status and the quote it was read from (see
 * `explainValue`), as lines for a terminal.
 */
export async function whyCommand(document: string, attribute: string, options: { db: string; table?: string }): Promise<number> {
  const store = await SragStore.open(options.db, { mustExist: true });
  try {
    const { source, value, raw, quote, status, reason, otherMatches } = await explainValue(store.connection, { document, attribute, table: options.table, database: options.db });
    process.stdout.write([
      `${friendlyPath(source)} · ${attribute} = ${value ?? 'NULL'} (${status})`,
      raw !== null ? `${reason === codeReason ? 'synthesized extractor' : 'model'} returned: ${raw}` : undefined,
      quote !== null ? `quote: “${quote}”${await quotePageNote(source, quote)}` : status === 'unchecked' ? 'quote: none (ingested with --no-evidence)' : 'quote: none',
      reason !== null ? `reason: ${reason}` : undefined,
      otherMatches > 0 ? `(${countNoun(otherMatches, 'other document')} also ${otherMatches === 1 ? 'matches' : 'match'} "${document}")` : undefined,
      '',
    ].filter((line) => line !== undefined).join('\n'));
    return 0;
  } finally {
    store.close();
  }
}
