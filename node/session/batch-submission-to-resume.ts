import { SragError, type DocumentSource, type RecordSchema } from '../../core/index.ts';
import { documentAtPath } from '../runtime/document-at-path.ts';
import { BatchJobs } from '../duckdb/store/batch-jobs.ts';
import type { Session } from './open-session.ts';

/**
 * What resuming a Batch API submission ingests (`srag ingest --resume-batch`): every document the
 * table's submissions list, with the table's schema, so that neither is named again. `table` may
 * be left out when one table has submissions; several are a choice for the caller (`name-table`).
 */
export async function batchSubmissionToResume(session: Session, table: string | undefined): Promise<{ documents: DocumentSource[]; schema: RecordSchema; table: string }> {
  const batchJobs = new BatchJobs(session.store);
  const tables = await batchJobs.tablesWithSubmissions();
  const database = session.store.path;
  const chosen = table ?? (tables.length === 1 ? tables[0] : undefined);
  if (tables.length === 0) {
    throw new SragError({ code: 'INPUT_INVALID', message: `no Batch API submission waits in ${database}`, hint: 'submit one with srag ingest DOCUMENTS --schema FILE --batch-api' });
  }
  if (!chosen || !tables.includes(chosen)) {
    throw new SragError({
      code: 'INPUT_INVALID',
      message: chosen ? `no Batch API submission waits for table "${chosen}" in ${database}` : `${database} has Batch API submissions for several tables (${tables.join(', ')})`,
      fix: { kind: 'name-table', choices: tables },
    });
  }
  const { schema } = await session.store.tableInfo(chosen);
  const documents = (await batchJobs.listedSources(chosen)).map(documentAtPath);
  return { documents, schema, table: chosen };
}
