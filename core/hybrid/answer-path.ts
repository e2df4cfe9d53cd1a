import type { OutputSchema } from '../ports/language-model.ts';

/** How an answer was reached: from the query's rows (`sql`), or from the text of the documents the query selected (`hybrid`). */
export type AnswerPath = 'sql' | 'hybrid';

/**
 * Which paths a question may take: `sql` only (the default, and the Sheets add-on's), `auto` (the
 * model decides per question), or `hybrid` forced (`srag ask --hybrid`).
 */
export type AnswerPathChoice = AnswerPath | 'auto';

/**
 * The end of the SQL prompt for each choice. With `auto` the decision costs no call of its own:
 * the model that writes the SQL already sees the schema and the statistics, which is exactly what
 * tells whether a column can hold the answer, so it says which path in the same reply.
 */
export const replyInstructions: Record<AnswerPathChoice, string> = {
  sql: 'Reply with a JSON object: {"sql": "<the query>"}',
  auto: [
    'Some questions need what the documents\' text says beyond these columns (what guests complain about, how a page describes something): the columns can narrow down which documents matter but cannot hold the answer.',
    'For such a question, write a query that returns the "_source" column of the documents to read, filtered with the columns as far as the question allows, and set "path" to "hybrid"; the answer is then read from those documents. For every other question, set "path" to "sql".',
    '',
    'Reply with a JSON object: {"sql": "<the query>", "path": "sql" or "hybrid"}',
  ].join('\n'),
  hybrid: [
    'This question is answered from the documents\' text, beyond these columns: write a query that returns the "_source" column of the documents to read, filtered with the columns as far as the question allows.',
    '',
    'Reply with a JSON object: {"sql": "<the query>"}',
  ].join('\n'),
};

/**
 * The structured output for each choice; only `auto` asks for the path. Every choice may name the
 * attributes the tables lack instead of writing SQL (`missing_attributes`, with `sql` empty).
 */
export function sqlReplySchema(choice: AnswerPathChoice): OutputSchema {
  const missingAttributes = { type: 'array', items: { type: 'string' } };
  if (choice !== 'auto') {
    return {
      name: 'sql_query',
      schema: { type: 'object', additionalProperties: false, required: ['sql', 'missing_attributes'], properties: { sql: { type: 'string' }, missing_attributes: missingAttributes } },
    };
  }
  return {
    name: 'sql_query',
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['sql', 'path', 'missing_attributes'],
      properties: { sql: { type: 'string' }, path: { type: 'string', enum: ['sql', 'hybrid'] }, missing_attributes: missingAttributes },
    },
  };
}
