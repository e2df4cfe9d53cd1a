import type { TableExporter } from '../../../app/index.ts';

/**
 * =SRAG_ASK's exporter, which must never be called: the exporter writes a database table to a
 * file for a sandbox to read, and the records range has no database behind it; its rows are
 * handed to the engine directly (`recordsRangeEngine`). A call is a bug, and says so.
 */
export const noTableExporter: TableExporter = {
  exportTable: (table) => Promise.reject(unused(`exportTable("${table}")`)),
  exportEvidence: (evidence) => Promise.reject(unused(`exportEvidence("${evidence.name}")`)),
};

function unused(call: string): Error {
  return new Error(`=SRAG_ASK called ${call}, but a records range is read in memory and never exported`);
}
