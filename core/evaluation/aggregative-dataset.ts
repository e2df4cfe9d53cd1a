import { reduceHtml } from '../documents/reduce-html.ts';
import { SragError } from '../errors/srag-error.ts';
import { contentHash } from '../hashing/content-hash.ts';
import type { ContextDocument } from './answering-system.ts';
import type { EvaluationQuestion } from './evaluation-question.ts';

/**
 * Field names the loader accepts, in order of preference. The AI21 release
 * (huggingface.co/datasets/ai21labs/aggregative_questions: `datasets/AI21-Hotels_train/` and
 * `datasets/AI21-Hotels_eval/`, the same for WorldCup, each with `corpus.jsonl` and
 * `questions.jsonl`) names a document's text `document_content` (code that loads it reads
 * `item['document_content']`); which id field it has, if any, is not known here: a corpus without
 * any of these gets ids made from each document's text (see `parseAggregativeDataset`).
 */
export const aggregativeDatasetFields = {
  documentId: ['id', 'doc_id', 'document_id', '_id', 'title', 'name', 'file_name', 'filename'],
  documentText: ['document_content', 'text', 'content', 'contents', 'document', 'html', 'page_content', 'body'],
  question: ['question', 'query'],
  answer: ['answer', 'gold_answer', 'expected_answer', 'gold'],
  questionId: ['id', 'question_id', 'qid'],
} as const;

export interface AggregativeDataset {
  documents: ContextDocument[];
  questions: EvaluationQuestion[];
  /**
   * The field names each file turned out to use, for the user to check; `documentId` is null when
   * the corpus has no id field and the ids were made from the texts.
   */
  fields: { documentId: string | null; documentText: string; question: string; answer: string };
}

/** Characters of a text's SHA-256 (hex) in an id made from it: 48 bits, no clash in a corpus of millions. */
const madeIdLength = 12;

/**
 * Parse the paper's published dataset layout (S-RAG paper §4): `corpus.jsonl` with one document per
 * line (its text, HTML reduced to text, and an id) and `questions.jsonl` with one question and its
 * gold answer per line. Strict: the first line fixes which field names the file uses and every line
 * must have them; duplicate document ids, empty texts and non-text answers are errors naming the line.
 *
 * A corpus whose first line has no id field gets an id per document made from its text,
 * `doc-` + the first 12 hex characters of its SHA-256 (`doc-3f2a9c…`; a second document with the
 * very same text gets `-2`): stable whatever the order of the lines or the lines added later, so a
 * rerun finds each document's record under the id it had — where a line number would move with
 * every line inserted before it.
 */
export function parseAggregativeDataset(files: { corpusText: string; corpusName: string; questionsText: string; questionsName: string }): AggregativeDataset {
  const corpus = readObjects(files.corpusText, files.corpusName);
  const questionLines = readObjects(files.questionsText, files.questionsName);
  const documentText = pickField(corpus, aggregativeDatasetFields.documentText, files.corpusName, 'the document text');
  const documentId = aggregativeDatasetFields.documentId.find((name) => name in corpus[0]!.value) ?? null;
  const question = pickField(questionLines, aggregativeDatasetFields.question, files.questionsName, 'the question');
  const answer = pickField(questionLines, aggregativeDatasetFields.answer, files.questionsName, 'the gold answer');
  const questionId = aggregativeDatasetFields.questionId.find((name) => name in questionLines[0]!.value);

  const seen = new Set<string>();
  const documents = corpus.map(({ value, line }) => {
    const text = value[documentText];
    const where = `${files.corpusName}:${line}`;
    if (typeof text !== 'string' || text.trim() === '') throw invalid(`${where} has no text in "${documentText}"`);
    let source: string;
    if (documentId === null) {
      const made = `doc-${contentHash(text).slice(0, madeIdLength)}`;
      source = made;
      for (let copy = 2; seen.has(source); copy += 1) source = `${made}-${copy}`;
    } else {
      const id = value[documentId];
      if ((typeof id !== 'string' && typeof id !== 'number') || String(id).trim() === '') throw invalid(`${where} has no "${documentId}"`);
      source = String(id).trim();
      if (seen.has(source)) throw invalid(`${where} repeats the document id "${source}"`);
    }
    seen.add(source);
    return { source, text: looksLikeHtml(text) ? reduceHtml(text) : text.replace(/\r\n?/g, '\n') };
  });
  const questions = questionLines.map(({ value, line }): EvaluationQuestion => {
    const where = `${files.questionsName}:${line}`;
    const text = value[question];
    const gold = value[answer];
    if (typeof text !== 'string' || text.trim() === '') throw invalid(`${where} has no "${question}" text`);
    if (typeof gold !== 'string' && typeof gold !== 'number' && typeof gold !== 'boolean') throw invalid(`${where} has no "${answer}" text`);
    const id = questionId !== undefined ? value[questionId] : undefined;
    return {
      question: text.trim(),
      answer: String(gold),
      ...(typeof id === 'string' || typeof id === 'number' ? { id: String(id) } : {}),
    };
  });
  return { documents, questions, fields: { documentId, documentText, question, answer } };
}

function readObjects(text: string, fileName: string): Array<{ value: Record<string, unknown>; line: number }> {
  const objects: Array<{ value: Record<string, unknown>; line: number }> = [];
  for (const [index, rawLine] of text.split(/\r?\n/).entries()) {
    if (!rawLine.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(rawLine);
    } catch {
      throw invalid(`${fileName}:${index + 1} is not valid JSON`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(`${fileName}:${index + 1} is not a JSON object`);
    objects.push({ value: value as Record<string, unknown>, line: index + 1 });
  }
  if (objects.length === 0) throw invalid(`${fileName} is empty`);
  return objects;
}

function pickField(objects: Array<{ value: Record<string, unknown> }>, names: readonly string[], fileName: string, what: string): string {
  const first = objects[0]!.value;
  const name = names.find((candidate) => candidate in first);
  if (name === undefined) {
    throw invalid(
      `${fileName}:1 has no field for ${what}: expected one of ${names.map((candidate) => `"${candidate}"`).join(', ')}, found ${Object.keys(first).map((key) => `"${key}"`).join(', ') || 'none'}`,
    );
  }
  return name;
}

function looksLikeHtml(text: string): boolean {
  return /^\s*<(?:!doctype|html|head|body|div|section|article|main|h[1-6]|p|table)\b/i.test(text);
}

function invalid(message: string): SragError {
  return new SragError({
    code: 'INPUT_INVALID',
    message,
    hint: 'srag eval --dataset DIR reads DIR/corpus.jsonl ({"document_content"} or {"text"}, and an optional "id", per line) and DIR/questions.jsonl ({"question", "answer"} per line); see docs/evaluation.md',
  });
}
