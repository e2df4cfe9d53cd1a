import { BIGINT, DuckDBScalarFunction, LIST, listValue, STRUCT, structValue, VARCHAR } from '../../duckdb/duckdb-node-api.ts';
import type { DuckDBValue } from '@duckdb/node-api';
import { statSync } from 'node:fs';
import { expandDocumentPaths } from '../../runtime/expand-document-paths.ts';
import { renderSqlError } from './render-sql-error.ts';

/** What the list holds per file: its path as matched, its size, and the argument that matched it. */
export const readTextItemType = STRUCT({ filename: VARCHAR, size: BIGINT, pattern: VARCHAR });

/**
 * The scalar `read_text(glob)` / `read_text([paths…])`: the files the argument names, as a list of
 * `{filename, size, pattern}` — without their contents, which `srag_extract` reads one document at
 * a time as it goes (100,000 texts in one value would have to fit in memory at once).
 *
 * This is what makes `srag_extract(read_text('docs/*'))` work as written. DuckDB keeps scalar and
 * table functions apart: `FROM read_text('docs/*')` still reaches DuckDB's own table function,
 * while in an argument position the name resolves to this scalar, which DuckDB evaluates once
 * while binding (it is not volatile and its argument is constant) and hands to `srag_extract` as a
 * constant list. Files are matched exactly as `srag_extract('docs/*')` matches them.
 */
export function createReadTextListFunctions(): DuckDBScalarFunction[] {
  const create = (listArgument: boolean) => DuckDBScalarFunction.create({
    name: 'read_text',
    returnType: LIST(readTextItemType),
    parameterTypes: [listArgument ? LIST(VARCHAR) : VARCHAR],
    mainFunction(info, input, output) {
      try {
        const values = input.getColumnValues(0) as DuckDBValue[];
        values.forEach((value, index) => {
          if (value === null) return output.setItem(index, null);
          const patterns = listArgument ? (value as { items: DuckDBValue[] }).items.filter((item): item is string => typeof item === 'string') : [String(value)];
          // Links are listed here and judged by srag_extract, which knows whether follow_links is set.
          const files = expandDocumentPaths(patterns, { followLinks: true });
          output.setItem(index, listValue(files.map((file) => structValue({
            filename: file.label,
            size: BigInt(statSync(file.identity, { throwIfNoEntry: false })?.size ?? 0),
            pattern: file.pattern,
          }))));
        });
        output.flush();
      } catch (error) {
        info.setError(renderSqlError('read_text', error));
      }
    },
  });
  return [create(false), create(true)];
}
