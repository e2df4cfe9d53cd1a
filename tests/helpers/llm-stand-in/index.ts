/**
 * The LLM stand-in: a local OpenAI-compatible server that answers srag's prompts from gold data.
 * Tests and the labelled offline demo point srag's OpenAI adapter at it through OPENAI_BASE_URL.
 */
export { startLlmStandIn, type StartLlmStandInOptions } from './start-llm-stand-in.ts';
export { allDialects, allFaultKinds } from './types.ts';
export type { BatchSlip, Dialect, FaultKind, LlmStandIn, LlmStandInOptions, ModelSlip, RecordedRequest, RequestKind } from './types.ts';
export { dialectMarkers } from './dialects/dialect-rules.ts';
export { azureDeployments } from './dialects/azure-dialect.ts';
export { geminiInvalidKey } from './dialects/gemini-openai-dialect.ts';
export { documentMarkers } from './respond-extract-record.ts';
export { batchDocumentMarkers } from './respond-extract-record-batch.ts';
export { injectionMarker } from './respond-sql.ts';
