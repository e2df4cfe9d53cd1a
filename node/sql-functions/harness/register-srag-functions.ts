import type { DuckDBConnection } from '@duckdb/node-api';
import type { LlmBridge } from '../llm-bridge/llm-bridge.ts';
import { createReadTextListFunctions } from '../table-functions/read-text-list.ts';
import { createSragAskJsonFunction } from '../table-functions/srag-ask.ts';
import { createSragQuestionPhrasesFunction } from '../table-functions/srag-question-phrases.ts';
import { createSragExtractScalarFunctions } from '../table-functions/srag-extract-scalar.ts';
import { createSragExtractFunction } from '../table-functions/srag-extract.ts';
import { createSragRecordTypeFunction } from '../table-functions/srag-record-type.ts';
import { createSragUsageFunction } from '../table-functions/srag-usage.ts';

/** Registers the srag functions in the database of `connection` (every connection sees them). */
export function registerSragFunctions(connection: DuckDBConnection, bridge: LlmBridge): void {
  connection.registerTableFunction(createSragExtractFunction(bridge));
  connection.registerTableFunction(createSragUsageFunction(bridge));
  for (const scalar of createSragExtractScalarFunctions(bridge)) connection.registerScalarFunction(scalar);
  for (const scalar of createReadTextListFunctions()) connection.registerScalarFunction(scalar);
  connection.registerScalarFunction(createSragRecordTypeFunction());
  connection.registerScalarFunction(createSragAskJsonFunction(bridge));
  connection.registerScalarFunction(createSragQuestionPhrasesFunction());
}
