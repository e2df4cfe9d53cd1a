import { DuckDBScalarFunction, VARCHAR } from '../../duckdb/duckdb-node-api.ts';
import { questionPhrases } from '../../../core/index.ts';
import { renderSqlError } from './render-sql-error.ts';

/**
 * `srag_question_phrases(question)`: the question's phrases (core `questionPhrases`) as a JSON
 * array, so that `srag_ask`'s macro finds them among `srag_column_values` in DuckDB with the very
 * normalization `srag ask` uses. Pure and synchronous: no model, no bridge.
 */
export function createSragQuestionPhrasesFunction(): DuckDBScalarFunction {
  return DuckDBScalarFunction.create({
    name: 'srag_question_phrases',
    returnType: VARCHAR,
    parameterTypes: [VARCHAR],
    mainFunction(info, input, output) {
      try {
        const questions = input.getColumnValues(0) as Array<string | null>;
        questions.forEach((question, index) => output.setItem(index, question === null ? null : JSON.stringify(questionPhrases(question))));
        output.flush();
      } catch (error) {
        info.setError(renderSqlError('srag_question_phrases', error));
      }
    },
  });
}
