import { bearerKey, carries, dialectMarkers, ok, refused, shapeByMarkers, type DialectRules } from './dialect-rules.ts';

/**
 * OpenRouter (`https://openrouter.ai/api/v1`): models named `vendor/model`; errors
 * `{"error": {"code": 400, "message", "metadata"}}` with the HTTP status of `code` "if your original
 * request is invalid or your API key/account is out of credits" (402), "otherwise, the returned HTTP
 * response status will be 200 and any error occurred while the LLM is producing the output will be
 * emitted in the response body" (https://openrouter.ai/docs/api/reference/errors-and-debugging):
 * the stand-in sends such a 200 for the provider-error marker, once per document. The words for a
 * model name it does not know could not be verified. Usage is reported on every reply.
 */
export function openRouterDialect(): DialectRules {
  const providerErrorsSent = new Set<string>();
  return {
    basePath: '/api/v1',
    refuse(request) {
      if (!bearerKey(request)) return refused(401, { error: { code: 401, message: 'No auth credentials found' } });
      if (!request.chat.model.includes('/')) return refused(400, { error: { code: 400, message: `${request.chat.model} is not a valid model ID` } });
      if (carries(request.chat, dialectMarkers.providerError)) {
        const document = request.chat.messages.at(-1)?.content ?? '';
        if (!providerErrorsSent.has(document)) {
          providerErrorsSent.add(document);
          return ok({ error: { code: 502, message: 'Provider returned error', metadata: { provider_name: 'StandInHost', raw: '{"error":{"code":502,"message":"upstream timeout"}}' } } });
        }
      }
      return undefined;
    },
    asAnswered: (chat) => chat,
    errorBody: (status, message) => ({ error: { code: status, message } }),
    reply: (body, request, content) => ok({ ...shapeByMarkers(body, request.chat, content), provider: 'StandInHost' }),
  };
}
