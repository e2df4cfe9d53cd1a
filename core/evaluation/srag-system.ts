import { askQuestion, type AskQuestionOptions } from '../text-to-sql/ask-question.ts';
import { countNoun } from '../text/count-noun.ts';
import type { AnsweringSystem } from './answering-system.ts';

/** What `askQuestion` takes, less the question, plus the table's row count for the description. */
export type SragSystemOptions = Omit<AskQuestionOptions, 'question'> & { rowCount?: number };

/** S-RAG itself (S-RAG paper §3.3): each question becomes SQL over the ingested table. */
export function createSragSystem(options: SragSystemOptions): AnsweringSystem {
  return {
    name: 'srag',
    describe: () =>
      `SQL over ${options.tables.map((table) => `table "${table.name}"`).join(', ')} (${countNoun(options.tables.reduce((sum, table) => sum + table.schema.attributes.length, 0), 'column')}${options.rowCount !== undefined ? `, ${countNoun(options.rowCount, 'row')}` : ''})`,
    async prepare() {},
    async answer(question) {
      const { rowCount: _rowCount, ...askOptions } = options;
      const result = await askQuestion({ ...askOptions, question });
      return { answer: result.answer, sql: result.sql, ...(result.coverage ? { coverage: result.coverage } : {}), usage: result.usage };
    },
  };
}
