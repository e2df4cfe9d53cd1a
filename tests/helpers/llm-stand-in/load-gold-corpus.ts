import { toSnakeCase } from '../../../core/schema/to-snake-case.ts';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repositoryRoot } from './repository-root.ts';

/** One property of a gold record, as `gold/records.jsonl` writes it. */
export interface GoldValue {
  value: unknown;
  /** The value as the document writes it, e.g. `"$123.64"`. */
  raw: string | null;
  /** A verbatim substring of the document text, or null when the document does not state it. */
  quote: string | null;
}

export interface GoldRecord {
  document: string;
  values: Record<string, GoldValue>;
  /** Per child entity the schema declares (`"entities"`), its items in the document's order. */
  children?: Record<string, Array<Record<string, GoldValue>>>;
}

export interface GoldQuestion {
  question: string;
  answer: unknown;
  sql: string;
  gold?: unknown;
  kind?: string;
  /** The tables the SQL reads, for a question across tables: answered only when the prompt shows them all. */
  tables?: string[];
  /**
   * `hybrid` for a question answered from the documents' text (`hybrid-questions.jsonl`): its
   * `sql` selects the documents' `_source`, and the answer step runs `context_sql` over the gold
   * records of the documents it was shown.
   */
  path?: 'hybrid';
  context_sql?: string;
}

/**
 * How a templated corpus writes one attribute (`gold/extractors.json`): a regular expression whose
 * whole match is the quote and whose first group is the value, and optionally a plausible wrong
 * one (`slip`), for the synthesized-extractor prompt.
 */
export interface GoldTemplate {
  pattern: string;
  flags?: string;
  slip?: string;
}

export interface GoldCorpus {
  directory: string;
  /** For a templated corpus: per attribute, the template it is written with. */
  extractors?: Record<string, GoldTemplate>;
  /** The JSON Schema from `schema.json`: `title` and flat `properties`. */
  schema: { title: string; properties: Record<string, unknown>; [key: string]: unknown };
  /** The table name the gold SQL uses: the schema title in snake_case. */
  tableName: string;
  records: GoldRecord[];
  questions: GoldQuestion[];
}

/** Each line of `file` as JSON; the file is split as bytes, so it may be larger than one string can hold (a million generated pages' gold). */
function readJsonLines<T>(file: string): T[] {
  const bytes = readFileSync(file);
  const values: T[] = [];
  for (let start = 0, number = 1; start < bytes.length; number += 1) {
    const end = bytes.indexOf(0x0a, start);
    const line = bytes.toString('utf8', start, end < 0 ? bytes.length : end);
    start = end < 0 ? bytes.length : end + 1;
    if (line.trim() === '') continue;
    try {
      values.push(JSON.parse(line) as T);
    } catch (cause) {
      throw new Error(`llm stand-in: ${file} line ${number} is not JSON`, { cause });
    }
  }
  return values;
}

/**
 * Loads a gold corpus directory (`schema.json`, `gold/records.jsonl`, optional `questions.jsonl`
 * and `hybrid-questions.jsonl`, kept apart so that evaluations of the SQL questions do not see them),
 * or a directory of reference data with only `questions.jsonl`, every question naming its `tables`.
 * A relative directory is resolved against the repository root.
 */
export function loadGoldCorpus(directory: string): GoldCorpus {
  const absolute = path.resolve(repositoryRoot, directory);
  const questionsFile = path.join(absolute, 'questions.jsonl');
  if (!existsSync(path.join(absolute, 'schema.json')) && existsSync(questionsFile)) {
    // Reference data (a CSV to import) has no documents: only questions across tables, each naming them.
    const questions = readJsonLines<GoldQuestion>(questionsFile);
    const undeclared = questions.find((question) => !question.tables?.length);
    if (undeclared) throw new Error(`llm stand-in: ${questionsFile}: "${undeclared.question}" needs "tables" (a corpus without schema.json has no table of its own)`);
    return { directory: absolute, schema: { title: '', properties: {} }, tableName: '', records: [], questions };
  }
  const schemaFile = path.join(absolute, 'schema.json');
  const recordsFile = path.join(absolute, 'gold', 'records.jsonl');
  for (const required of [schemaFile, recordsFile]) {
    if (!existsSync(required)) throw new Error(`llm stand-in: corpus ${directory} has no ${path.relative(absolute, required)}`);
  }
  const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as GoldCorpus['schema'];
  if (typeof schema.title !== 'string' || typeof schema.properties !== 'object' || schema.properties === null) {
    throw new Error(`llm stand-in: ${schemaFile} needs "title" and "properties"`);
  }
  const hybridQuestionsFile = path.join(absolute, 'hybrid-questions.jsonl');
  const extractorsFile = path.join(absolute, 'gold', 'extractors.json');
  return {
    directory: absolute,
    ...(existsSync(extractorsFile) ? { extractors: JSON.parse(readFileSync(extractorsFile, 'utf8')) as Record<string, GoldTemplate> } : {}),
    schema,
    tableName: toSnakeCase(schema.title, { prefix: 't_', fallback: 'records' }),
    records: readJsonLines<GoldRecord>(recordsFile),
    questions: [questionsFile, hybridQuestionsFile].flatMap((file) => (existsSync(file) ? readJsonLines<GoldQuestion>(file) : [])),
  };
}
