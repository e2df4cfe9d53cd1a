/**
 * The one OpenAI-compatible wire, for both runtimes: requests, replies and every failure of a call
 * decided here (structured-output fallback, retryable statuses, Retry-After, quota, redaction).
 * It speaks HTTP only through the `HttpTransport` it is handed: srag for Node gives node:http, the
 * Sheets add-on its request loop over UrlFetchApp. No runtime's globals are used here.
 */
export { defaultMaxReplyBytes, type HttpRequest, type HttpResponse, type HttpTransport } from './http-transport.ts';
export { TransportFailure, type TransportFailureKind } from './transport-failure.ts';
export { endpointUrl, type EndpointHints, type OpenAiEndpoint } from './openai-endpoint.ts';
export { EndpointFailures } from './endpoint-failures.ts';
export { OpenAiWire, type OpenAiWireOptions } from './openai-wire.ts';
export { OpenAiChatModel } from './openai-chat-model.ts';
export { chatCompletionRequest, type ChatRequestSettings } from './chat-completion-request.ts';
export { readChatCompletion, type ChatCompletionBody } from './read-chat-completion.ts';
export { ParameterAdaptations, type LearnedAdaptation, type OutputMode, type ParameterAdaptation } from './parameter-adaptations.ts';
export { modelParameterRules, type ModelParameterRules } from './model-parameter-rules.ts';
export { endpointIdentity } from './endpoint-identity.ts';
export { isAzureOpenAiHost } from './azure-openai-host.ts';
export { readErrorBody, type ErrorDetail } from './read-error-body.ts';
export { OpenAiBatchApi } from './openai-batch-api.ts';
export { OpenAiTextEmbedder } from './openai-text-embedder.ts';
export { parseRetryAfter } from './parse-retry-after.ts';
