import { reduceHtml } from '../documents/reduce-html.ts';
import { SragError } from '../errors/srag-error.ts';
import type { ContextDocument } from './answering-system.ts';
import type { EvaluationQuestion } from './evaluation-question.ts';

/**
 * Field names the loader accepts, in order of preference. The AI21 release (huggingface.co/datasets/
 * ai21labs/aggregative_questions: `datasets/AI21-Hotels/` and `datasets/AI21-WorldCup/`, each with
 * `corpus.jsonl` and `questions.jsonl`) could not be inspected when this was written, so these are
 * the usual names; a file using others fails with a message that lists the names it has.
 */
export const aggregativeDatasetFields = {
  documentId: ['id', 'doc_id', 'document_id', '_id', 'title', 'name', 'file_name', 'filename'],
  documentText: ['text', 'content', 'contents', 'document', 'html', 'page_content', 'body'],
  question: ['question', 'query'],
  answer: ['answer', 'gold_answer', 'expected_answer', 'gold'],
  questionId: ['id', 'question_id', 'qid'],
} as const;

export interface AggregativeDataset {
  documents: ContextDocument[];
  questions: EvaluationQuestion[];
  /** The field names each file turned out to use, for the user to check. */
  fields: { documentId: string; documentText: string; question: string; answer: string };
}

/**
 * Parse the paper's published dataset layout (S-RAG paper §4): `corpus.jsonl` with one document per
 * line (an id and its text, HTML reduced to text) and `questions.jsonl` with one question and its
 * gold answer per line. Strict: the first line fixes which field names the file uses and every line
 * must have them; duplicate document ids, empty texts and non-text answers are errors naming the line.
 */
export function parseAggregativeDataset(files: { corpusText: string; corpusName: string; questionsText: string; questionsName: string }): AggregativeDataset {
  const corpus = readObjects(files.corpusText, files.corpusName);
  const questionLines = readObjects(files.questionsText, files.questionsName);
  const documentId = pickField(corpus, aggregativeDatasetFields.documentId, files.corpusName, 'a document id');
  const documentText = pickField(corpus, aggregativeDatasetFields.documentText, files.corpusName, 'the document text');
  const question = pickField(questionLines, aggregativeDatasetFields.question, files.questionsName, 'the question');
  const answer = pickField(questionLines, aggregativeDatasetFields.answer, files.questionsName, 'the gold answer');
  const questionId = aggregativeDatasetFields.questionId.find((name) => name in questionLines[0]!.value);

  const seen = new Set<string>();
  const documents = corpus.map(({ value, line }) => {
    const id = value[documentId];
    const text = value[documentText];
    const where = `${files.corpusName}:${line}`;
    if ((typeof id !== 'string' && typeof id !== 'number') || String(id).trim() === '') throw invalid(`${where} has no "${documentId}"`);
    if (typeof text !== 'string' || text.trim() === '') throw invalid(`${where} has no text in "${documentText}"`);
    const source = String(id).trim();
    if (seen.has(source)) throw invalid(`${where} repeats the document id "${source}"`);
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
    hint: 'srag eval --dataset DIR reads DIR/corpus.jsonl ({"id", "text"} per line) and DIR/questions.jsonl ({"question", "answer"} per line); see docs/evaluation.md',
  });
}
