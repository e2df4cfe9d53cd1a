import type { DuckDBConnection } from '@duckdb/node-api';
import { connectionTableSource } from './connection-table-source.ts';
import type { SandboxTableSource } from './sandbox-table-source.ts';

/**
 * The tables of a database read over a connection opened for each export (`openConnection`) and
 * closed after it, so that the exports of several questions run at once (`srag serve`), where one
 * shared connection runs one statement at a time.
 */
export function openedConnectionTableSource(openConnection: () => Promise<DuckDBConnection>): SandboxTableSource {
  const withSource = async <T>(work: (source: SandboxTableSource) => Promise<T>): Promise<T> => {
    const connection = await openConnection();
    try {
      return await work(connectionTableSource(connection));
    } finally {
      connection.closeSync();
    }
  };
  return {
    describeTable: (table) => withSource((source) => source.describeTable(table)),
    exportTable: (table, columns, file) => withSource((source) => source.exportTable(table, columns, file)),
    exportEvidence: (table, attributes, file) => withSource((source) => source.exportEvidence!(table, attributes, file)),
  };
}
