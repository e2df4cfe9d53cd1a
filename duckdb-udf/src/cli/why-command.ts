import { countNoun, SragError } from '../../../core/index.ts';
import { quotePageNote } from '../documents/quote-page-note.ts';
import { quoteIdentifier } from '../quote-identifier.ts';
import { sragCommandLine } from '../quote-shell-argument.ts';
import { SragStore } from '../store/srag-store.ts';

/** `srag why <document> <attribute>`: the value, its status and the quote it was read from. */
export async function whyCommand(document: string, attribute: string, options: { db: string; table?: string }): Promise<number> {
  const store = await SragStore.open(options.db);
  try {
    const info = await store.tableInfo(options.table);
    if (!info.schema.attributes.some((candidate) => candidate.name === attribute)) {
      throw new SragError({ code: 'INPUT_INVALID', message: `table ${info.table} has no attribute "${attribute}"`, hint: `one of: ${info.schema.attributes.map((candidate) => candidate.name).join(', ')}` });
    }
    const rows = (await store.connection.runAndReadAll(
      `SELECT source, value, raw, quote, status, reason FROM srag_evidence
       WHERE table_name = $1 AND attribute = $2 AND (source = $3 OR source LIKE '%/' || $3 OR source LIKE '%' || $3 || '%')
       ORDER BY (source = $3) DESC, length(source)`, [info.table, attribute, document])).getRowsJS();
    if (rows.length === 0) {
      throw new SragError({
        code: 'INPUT_INVALID',
        message: `no document matching "${document}" in ${info.table}`,
        hint: `pass the path as ingested or a unique part of it, e.g. the file name (${sragCommandLine(['sql', '-c', `SELECT _source FROM ${quoteIdentifier(info.table)}`], options.db)} lists them)`,
      });
    }
    const [source, value, raw, quote, status, reason] = rows[0]!;
    process.stdout.write([
      `${source} · ${attribute} = ${value ?? 'NULL'} (${status})`,
      raw !== null ? `model returned: ${raw}` : undefined,
      quote !== null ? `quote: “${quote}”${await quotePageNote(String(source), String(quote))}` : status === 'unchecked' ? 'quote: none (ingested with --no-evidence)' : 'quote: none',
      reason !== null ? `reason: ${reason}` : undefined,
      rows.length > 1 ? `(${countNoun(rows.length - 1, 'other document')} also ${rows.length === 2 ? 'matches' : 'match'} "${document}")` : undefined,
      '',
    ].filter((line) => line !== undefined).join('\n'));
    return 0;
  } finally {
    store.close();
  }
}
