import { ANY, BOOLEAN, DuckDBTableFunction, INTEGER, VARCHAR } from '../../duckdb/duckdb-node-api.ts';
import { SragError, type RecordSchema } from '../../../core/index.ts';
import type { ExtractionSettings, OnError, ScanListing } from '../llm-bridge/bridge-protocol.ts';
import type { LlmBridge } from '../llm-bridge/llm-bridge.ts';
import { extractedColumns, extractedColumnValues } from './extracted-columns.ts';
import { readSchemaArgument } from './read-schema-argument.ts';
import { renderSqlError } from './render-sql-error.ts';
import { readScanArgument } from './read-scan-argument.ts';
import { schemaKey } from './schema-key.ts';

/** DuckDB's vector size: the most rows one call of the main function may return. */
const rowsPerChunk = 2048;

interface BindData {
  schema: RecordSchema;
  schemaKey: string;
  /**
   * The documents: a glob's or a list of paths' are listed by the bridge, which keeps them (a
   * million files are ~200 MB as objects: this thread never holds them); `read_text(…)`'s are here.
   */
  listing: ScanListing;
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
        const scanned = readScanArgument(argument, { followLinks });
        let listing: ScanListing;
        let count: number;
        if ('documents' in scanned) {
          listing = scanned;
          count = scanned.documents.length;
        } else {
          const listed = bridge.callSync({ type: 'list-scan', patterns: scanned.patterns, named: scanned.named, followLinks });
          listing = { listId: listed.listId, patterns: scanned.patterns, named: scanned.named, followLinks };
          count = listed.count;
        }
        for (const column of extractedColumns(schema)) info.addResultColumn(column.name, column.type);
        info.setCardinality(count, true);
        const bindData: BindData = {
          schema,
          schemaKey: schemaKey(schema),
          listing,
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
        const { scanId } = bridge.callSync({ type: 'start-scan', schema: bindData.schema, schemaKey: bindData.schemaKey, listing: bindData.listing, settings: bindData.settings });
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
