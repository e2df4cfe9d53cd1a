import type { AskEngine, AskPorts } from '../../../app/index.ts';
import type { ModelClient, PromptLibrary } from '../../../core/index.ts';
import type { RecordsRangeTable } from '../custom-functions/records-range-table.ts';
import { noTableExporter } from './no-table-exporter.ts';
import { recordsRangeSnapshot } from './records-range-snapshot.ts';

export interface SheetsAskPortsOptions {
  client: ModelClient;
  prompts: PromptLibrary;
  model: string;
  /** The records range as one table, and its name (`tableNameForSchema` of the schema's title). */
  records: RecordsRangeTable;
  table: string;
  /** The engine over that table (`recordsRangeEngine`), shared with the pinned query's run. */
  engine: AskEngine;
}

/**
 * What a question asks of Apps Script (`ask`'s ports): one table, the records range, answered
 * from SQL alone. No grower (the add-on grows its table by a new Schema row and Extract, not at
 * question time) and no hybrid reading (the range keeps no path to read a document by).
 */
export function sheetsAskPorts({ client, prompts, model, records, table, engine }: SheetsAskPortsOptions): AskPorts {
  return {
    client,
    prompts,
    model,
    database: 'the records range',
    readTables: async () => recordsRangeSnapshot(records, table),
    exporter: noTableExporter,
    openEngine: () => engine,
  };
}
