import { ANY, BOOLEAN, DuckDBListValue, DuckDBTableFunction, INTEGER, VARCHAR } from '../../duckdb/duckdb-node-api.ts';
import { SragError, type RecordSchema } from '../../../core/index.ts';
import type { ExtractionSettings, OnError, ScanDocument } from '../llm-bridge/bridge-protocol.ts';
import type { LlmBridge } from '../llm-bridge/llm-bridge.ts';
import { extractedColumns, extractedColumnValues } from './extracted-columns.ts';
import { readSchemaArgument } from './read-schema-argument.ts';
import { renderSqlError } from './render-sql-error.ts';
import { resolveScanDocuments } from './resolve-scan-documents.ts';
import { schemaKey } from './schema-key.ts';

/** DuckDB's vector size: the most rows one call of the main function may return. */
const rowsPerChunk = 2048;

interface BindData {
  schema: RecordSchema;
  schemaKey: string;
  /**
   * The documents bind listed, until init hands them to the bridge: ~200 bytes each, which a
   * million-file scan need not hold on this thread too while it runs. An init after that (DuckDB
   * scans a table function again in some plans) lists them again (`list`) — when they came from
   * globs or paths, whose text is small; those `read_text(…)` listed are kept (`list` undefined).
   */
  documents: ScanDocument[] | undefined;
  list: (() => ScanDocument[]) | undefined;
  settings: ExtractionSettings;
}

/**
 * `srag_extract(docs, schema := …, model := …, concurrency := …, on_error := …, batch_size := …,
 * retry_failed := …, follow_links := …)`: one row per document `docs` names — a glob, a list of
 * paths, or `read_text(…)` (see `createReadTextListFunctions`). Bind reads the arguments and the
 * schema and lists the files; init starts the extraction run on the bridge; each main call blocks
 * until the next rows are ready (see `LlmBridge.callSync`) and writes them into the chunk.
 */
export function createSragExtractFunction(bridge: LlmBridge): DuckDBTableFunction {
  return DuckDBTableFunction.create({
    name: 'srag_extract',
    // ANY: a glob (VARCHAR), a list of paths (VARCHAR[]) or read_text's list of files, told apart in bind.
    parameterTypes: [ANY],
    namedParameterTypes: { schema: VARCHAR, model: VARCHAR, concurrency: INTEGER, on_error: VARCHAR, batch_size: INTEGER, retry_failed: BOOLEAN, follow_links: BOOLEAN },
    bindFunction(info) {
      try {
        const schema = readSchemaArgument(info.getNamedParameter('schema') as string | null);
        const argument = info.getParameter(0);
        const followLinks = info.getNamedParameter('follow_links') === true;
        const documents = resolveScanDocuments(argument, { followLinks });
        const list = typeof argument === 'string' || (argument instanceof DuckDBListValue && argument.items.every((item) => typeof item === 'string'))
          ? () => resolveScanDocuments(argument, { followLinks })
          : undefined;
        for (const column of extractedColumns(schema)) info.addResultColumn(column.name, column.type);
        info.setCardinality(documents.length, true);
        const bindData: BindData = {
          schema,
          schemaKey: schemaKey(schema),
          documents,
          list,
          settings: {
            model: (info.getNamedParameter('model') as string | null) ?? undefined,
            concurrency: positive(info.getNamedParameter('concurrency'), 'concurrency'),
            batchSize: positive(info.getNamedParameter('batch_size'), 'batch_size') ?? 'auto',
            onError: onErrorMode(info.getNamedParameter('on_error') as string | null),
            retryFailed: info.getNamedParameter('retry_failed') === true,
          },
        };
        info.setBindData(bindData);
      } catch (error) {
        info.setError(renderSqlError('srag_extract', error));
      }
    },
    initFunction(info) {
      const bindData = info.getBindData() as BindData;
      try {
        const documents = bindData.documents ?? bindData.list!();
        if (bindData.list) bindData.documents = undefined;
        const { scanId } = bridge.callSync({ type: 'start-scan', schema: bindData.schema, schemaKey: bindData.schemaKey, documents, settings: bindData.settings });
        info.setInitData({ scanId, done: false });
      } catch (error) {
        info.setError(renderSqlError('srag_extract', error));
      }
    },
    mainFunction(info, output) {
      const bindData = info.getBindData() as BindData;
      const state = info.getInitData() as { scanId: number; done: boolean };
      if (state.done) {
        output.rowCount = 0;
        return;
      }
      try {
        const { rows, done } = bridge.callSync({ type: 'next-rows', scanId: state.scanId, maximum: rowsPerChunk });
        state.done = done;
        output.rowCount = rows.length;
        if (rows.length > 0) output.setColumns(extractedColumnValues(bindData.schema, rows));
      } catch (error) {
        output.rowCount = 0;
        info.setError(renderSqlError('srag_extract', error));
      }
    },
  });
}

function positive(value: unknown, name: string): number | undefined {
  if (value === null || value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new SragError({ code: 'INPUT_INVALID', message: `${name} must be a positive whole number, not ${String(value)}` });
  return number;
}

function onErrorMode(value: string | null): OnError {
  if (value === null) return 'capture';
  const mode = value.trim().toLowerCase();
  if (mode === 'capture' || mode === 'null' || mode === 'fail') return mode;
  throw new SragError({ code: 'INPUT_INVALID', message: `on_error must be 'capture', 'null' or 'fail', not '${value}'` });
}
