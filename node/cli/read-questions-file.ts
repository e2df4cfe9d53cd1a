import { SragError } from '../../core/index.ts';
import { readTextFile } from '../runtime/read-text-file.ts';

/** Questions: one per line, or JSONL with a `question` field; blank lines and `#` comments skipped. */
export async function readQuestionsFile(path: string): Promise<string[]> {
  const text = await readTextFile(path, { what: 'the questions file', hint: 'pass --questions with a file of one question per line, or JSONL with a "question" field' });
  const questions: string[] = [];
  for (const [index, rawLine] of text.split(/\r?\n/).entries()) {
    const line = rawLine.trim();
    if (!line || line.startsWith('#')) continue;
    if (line.startsWith('{')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        throw new SragError({ code: 'INPUT_INVALID', message: `${path}:${index + 1} is not valid JSON`, hint: 'each JSONL line must be an object like {"question": "..."}' });
      }
      const question = (parsed as { question?: unknown }).question;
      if (typeof question !== 'string' || !question.trim()) {
        throw new SragError({ code: 'INPUT_INVALID', message: `${path}:${index + 1} has no "question" string`, hint: 'each JSONL line must be an object like {"question": "..."}' });
      }
      questions.push(question.trim());
    } else {
      questions.push(line);
    }
  }
  if (questions.length === 0) throw new SragError({ code: 'INPUT_INVALID', message: `${path} holds no questions`, hint: 'write one question per line' });
  return questions;
}
