import { chooseTables, SragError, type TokenUsage } from '../../core/index.ts';
import { duckDbTableCatalog } from './catalog/duckdb-table-catalog.ts';
import { extendTableForQuestion } from './extend-table-for-question.ts';
import type { Session } from './open-session.ts';

/** What `srag ask --extend-schema --dry-run` reports for a question (`--json` prints it as is). */
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
 * The back-fill `srag ask --extend-schema` would run for `question`, without running it: the
 * table is chosen as the question would choose it, the model names the attributes it needs, and
 * the back-fill's documents, calls, tokens and cost are estimated from the plan the run follows.
 * Nothing is added to the table and no extraction call is made.
 */
export async function dryRunExtension(session: Session, question: string, table?: string): Promise<ExtensionDryRun> {
  const name = table ?? (await chooseTables({ question, catalog: duckDbTableCatalog((work) => session.store.exclusive(work)) })).tables
    .find((candidate) => candidate.origin !== 'imported')?.name;
  if (!name) {
    throw new SragError({ code: 'INPUT_INVALID', message: `no table of documents answers "${question}", so there is nothing to extend`, hint: 'name the table with --table' });
  }
  const extension = await extendTableForQuestion(session, name, question, { dryRun: true });
  const estimate = extension.estimate;
  return {
    question, table: name, added_attributes: extension.addedAttributes.map((attribute) => attribute.name),
    documents: estimate?.documents ?? 0, calls: estimate?.calls ?? 0, prompt_tokens: estimate?.promptTokens ?? 0, completion_tokens: estimate?.completionTokens ?? 0,
    cost_usd: estimate ? estimate.costUsd : 0, model: session.settings.extractModel, schema_usage: extension.proposalUsage,
  };
}
