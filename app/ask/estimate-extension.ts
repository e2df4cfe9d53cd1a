import type { TokenUsage } from '../../core/index.ts';
import type { AskPorts } from '../ports/ask-ports.ts';
import { recordTables } from '../tables/record-tables.ts';
import { chooseRecordTables } from './choose-record-tables.ts';
import { tableToGrow } from './table-to-grow.ts';

/** What extending the schema for a question would add and cost (`srag ask --extend-schema --dry-run`; `--json` prints it as is). */
export interface ExtensionDryRun {
  question: string;
  table: string;
  added_attributes: string[];
  /** Documents the back-fill would extract, and what it would send (0 when the table holds everything). */
  documents: number;
  calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  /** null for a model the price table does not know (SRAG_PRICES adds one). */
  cost_usd: number | null;
  model: string;
  /** The target-schema call that named the attributes (SRAG_MODEL): the only model call made. */
  schema_usage: TokenUsage & { calls: number };
}

/**
 * The back-fill extending the schema would run for `question`, without running it: the table is
 * chosen as the question would choose it, the model names the attributes it needs, and the
 * back-fill's documents, calls, tokens and cost are estimated from the plan the run follows.
 * Nothing is added to the table and no extraction call is made.
 */
export async function estimateExtension(ports: AskPorts, question: string, options: { table?: string; extractModel: string }): Promise<ExtensionDryRun> {
  const snapshot = await ports.readTables(question, options.table);
  const choice = await chooseRecordTables(snapshot, recordTables(snapshot), question, options.table, ports.database, ports.readLinks);
  const table = tableToGrow(choice.tables, question, ports.grower);
  const { report } = await ports.grower!.grow(table, question, { dryRun: true });
  const estimate = report.estimate;
  return {
    question, table: table.name, added_attributes: report.addedAttributes.map((attribute) => attribute.name),
    documents: estimate?.documents ?? 0, calls: estimate?.calls ?? 0, prompt_tokens: estimate?.promptTokens ?? 0, completion_tokens: estimate?.completionTokens ?? 0,
    cost_usd: estimate ? estimate.costUsd : 0, model: options.extractModel, schema_usage: report.schemaUsage,
  };
}
