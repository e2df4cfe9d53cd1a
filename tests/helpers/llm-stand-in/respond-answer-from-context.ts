import type { ChatRequest } from './chat-request.ts';
import type { GoldCorpus, GoldQuestion, GoldRecord } from './load-gold-corpus.ts';
import { contentReply, type Reply } from './reply.ts';
import { runGoldSql, type GoldRow } from './run-gold-sql.ts';
import { containsQuote, normalizeWhitespace } from './text-matching.ts';

const leadIn = 'Based only on the documents in the context:';

/**
 * answer-from-context (the rag and full-corpus baselines) and answer-from-documents (the hybrid path): answers as a model that reasons
 * perfectly over what it was shown and knows nothing else. The records it "sees" are the gold
 * records with half or more of their distinctive quotes (ones no other record shares) in the
 * context, each keeping only
 * the values whose quotes occur there; the question's gold SQL runs over just those records and the
 * result is phrased. A context missing documents so gives the wrong count, average or list, as the
 * baselines do in the S-RAG paper's Table 5.
 */
export async function respondAnswerFromContext(request: ChatRequest, corpora: GoldCorpus[], { hybrid = false }: { hybrid?: boolean } = {}): Promise<Reply> {
  const prompt = request.messages.filter((message) => message.role === 'user').at(-1)?.content ?? '';
  const question = /^Question: (.*)$/m.exec(prompt)?.[1] ?? '';
  const contextStart = prompt.search(/^Context:\s*$/m);
  const context = normalizeWhitespace(contextStart < 0 ? '' : prompt.slice(contextStart));
  const found = findQuestion(corpora, question);
  if (!found) return contentReply('The context does not say; I cannot answer this question from it.');
  const visible = found.corpus.records.flatMap((record) => visibleRecord(record, found.corpus, context));
  // answer-from-documents (srag ask's hybrid path): a hybrid question's gold SQL selects documents,
  // its context_sql says what the reader takes from them; a question without one reads as above.
  const rows = await runGoldSql(found.corpus, visible, hybrid && found.gold.context_sql ? found.gold.context_sql : found.gold.sql);
  return contentReply(phrase(rows));
}

function findQuestion(corpora: GoldCorpus[], question: string): { corpus: GoldCorpus; gold: GoldQuestion } | undefined {
  const key = normalizeWhitespace(question).toLowerCase();
  for (const corpus of corpora) {
    const gold = corpus.questions.find((entry) => normalizeWhitespace(entry.question).toLowerCase() === key);
    if (gold) return { corpus, gold };
  }
  return undefined;
}

const distinctiveQuotes = new WeakMap<GoldCorpus, Map<GoldRecord, string[]>>();

/** Per record, its quotes that no other record of the corpus has; computed once per corpus. */
function distinctiveQuotesOf(corpus: GoldCorpus): Map<GoldRecord, string[]> {
  let byRecord = distinctiveQuotes.get(corpus);
  if (byRecord) return byRecord;
  const owners = new Map<string, number>();
  for (const record of corpus.records) {
    for (const quote of new Set(Object.values(record.values).map((cell) => cell.quote))) {
      if (typeof quote === 'string') owners.set(quote, (owners.get(quote) ?? 0) + 1);
    }
  }
  byRecord = new Map(corpus.records.map((record) => [record, Object.values(record.values)
    .map((cell) => cell.quote)
    .filter((quote): quote is string => typeof quote === 'string' && owners.get(quote) === 1)]));
  distinctiveQuotes.set(corpus, byRecord);
  return byRecord;
}

function visibleRecord(record: GoldRecord, corpus: GoldCorpus, context: string): Array<{ document: string; values: Record<string, unknown> }> {
  const distinctive = distinctiveQuotesOf(corpus).get(record) ?? [];
  // Half or more, not one: a short quote ("Rooms: 165") can occur inside another page ("Rooms: 1650").
  const seen = distinctive.filter((quote) => containsQuote(context, quote)).length;
  if (seen === 0 || seen * 2 < distinctive.length) return [];
  const values = Object.fromEntries(Object.entries(record.values).map(([name, cell]) => [name, containsQuote(context, cell.quote) ? cell.value : null]));
  return [{ document: record.document, values }];
}

function phrase(rows: GoldRow[]): string {
  if (rows.length === 0 || rows.every((row) => row.every((cell) => cell === null))) {
    return 'The documents in the context do not say; I cannot answer from them.';
  }
  return `${leadIn} ${rows.map((row) => row.map(cellText).join(': ')).join('; ')}.`;
}

function cellText(cell: GoldRow[number]): string {
  if (cell === null) return 'unknown';
  if (typeof cell === 'boolean') return cell ? 'Yes' : 'No';
  if (typeof cell === 'number') return cell.toLocaleString('en-US', { maximumFractionDigits: 2 });
  return cell;
}
