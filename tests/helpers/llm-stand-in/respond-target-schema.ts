import type { ChatRequest } from './chat-request.ts';
import { firstMessageOf } from './chat-request.ts';
import type { GoldCorpus } from './load-gold-corpus.ts';
import { noGoldReply } from './match-gold.ts';
import { contentReply, type Reply } from './reply.ts';
import { normalizeWhitespace } from './text-matching.ts';

/**
 * target-schema: the attributes the question's gold SQL uses that the prompt's column list lacks,
 * defined as the corpus's gold `schema.json` defines them — the target schema a careful model
 * would write. The question is found by the `Question:` line; one with no gold SQL is refused.
 */
export function respondTargetSchema(request: ChatRequest, corpora: GoldCorpus[]): Reply {
  const prompt = firstMessageOf(request, 'user');
  const question = /^Question: (.*)$/m.exec(prompt)?.[1] ?? '';
  const missing = goldAttributesMissing(prompt, question, corpora);
  if (missing) {
    const properties = missing.corpus.schema.properties;
    return contentReply(JSON.stringify({ attributes: Object.fromEntries(missing.names.map((name) => [name, properties[name]])) }));
  }
  return noGoldReply(`a target schema for the question ${JSON.stringify(normalizeWhitespace(question))}`, corpora);
}

/**
 * The gold SQL's attributes a prompt's column list (`- "name" TYPE…` lines) lacks, for the question
 * in `question`; undefined for a question with no gold SQL.
 */
export function goldAttributesMissing(prompt: string, question: string, corpora: GoldCorpus[]): { corpus: GoldCorpus; names: string[] } | undefined {
  const key = normalizeWhitespace(question).toLowerCase();
  const columns = new Set([...prompt.matchAll(/^- "([^"]+)" /gm)].map((match) => match[1]!));
  for (const corpus of corpora) {
    const gold = corpus.questions.find((entry) => normalizeWhitespace(entry.question).toLowerCase() === key);
    if (!gold) continue;
    // A prompt that lists no columns says nothing about what the table lacks.
    if (columns.size === 0) return { corpus, names: [] };
    return { corpus, names: Object.keys(corpus.schema.properties).filter((name) => new RegExp(`\\b${name}\\b`).test(gold.sql) && !columns.has(name)) };
  }
  return undefined;
}
