import { carries, dialectMarkers, ok, openAiError, refused, type DialectRules } from './dialect-rules.ts';
import { replyAsOpenAi } from './openai-chat-dialect.ts';
import { reasoningReply, refuseAsReasoningModel } from './openai-reasoning-dialect.ts';

/**
 * The deployments the stand-in's Azure resource has, and the model behind each: a request names
 * the deployment in `model`, and a deployment's name need not say what it serves.
 */
export const azureDeployments: Readonly<Record<string, 'chat' | 'reasoning'>> = {
  'srag-stand-in': 'chat',
  'gpt-4o-mini': 'chat',
  'reasoning-deployment': 'reasoning',
};

/**
 * Azure OpenAI's v1 API (`https://RESOURCE.openai.azure.com/openai/v1/`, Microsoft's "API version
 * lifecycle" page, https://learn.microsoft.com/azure/ai-foundry/openai/api-version-lifecycle):
 * - the key in the `api-key` header, as the openai SDK's AzureOpenAI sends it (node_modules/openai/src/azure.ts,
 *   `authHeaders`); the stand-in refuses a request without it with Azure's 401 words (a bearer key
 *   is how Entra ID tokens travel; whether v1 also takes a resource key as a bearer token could not
 *   be verified here);
 * - `model` names a deployment: an unknown one gets 404 `DeploymentNotFound`, "The API deployment
 *   for this resource does not exist. …" (MicrosoftDocs/azure-docs#114013, chatboxai/chatbox#646);
 * - a deployment of a reasoning model refuses what OpenAI's do (opencode#37964 for max_tokens on Azure);
 * - a prompt its content filter flags: 400 `content_filter`, param `prompt`, with `innererror`
 *   `ResponsibleAIPolicyViolation` (openai/openai-python#331, compl-ai/compl-ai#20).
 */
export function azureDialect(): DialectRules {
  return {
    basePath: '/openai/v1',
    refuse(request) {
      if (typeof request.headers['api-key'] !== 'string' || request.headers['api-key'] === '') {
        return refused(401, { error: { code: '401', message: 'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.' } });
      }
      const deployment = azureDeployments[request.chat.model];
      if (!deployment) {
        return refused(404, { error: { code: 'DeploymentNotFound', message: 'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.' } });
      }
      if (carries(request.chat, dialectMarkers.contentFilter)) {
        return refused(400, {
          error: {
            message: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766",
            type: null, param: 'prompt', code: 'content_filter', status: 400,
            innererror: { code: 'ResponsibleAIPolicyViolation', content_filter_result: { violence: { filtered: true, severity: 'medium' } } },
          },
        });
      }
      // The key was checked above, in Azure's header; OpenAI's refusals of the model apply as they are.
      if (deployment === 'reasoning') return refuseAsReasoningModel({ ...request, headers: { ...request.headers, authorization: 'Bearer api-key-checked' } });
      if ('reasoning_effort' in request.body) return refused(400, openAiError('Unrecognized request argument supplied: reasoning_effort', 'invalid_request_error'));
      return undefined;
    },
    asAnswered: (chat) => chat,
    errorBody: (_status, message, type, param) => openAiError(message, type, param),
    reply: (body, request, content) => ok(azureDeployments[request.chat.model] === 'reasoning' ? reasoningReply(body, request, content) : replyAsOpenAi(body, request, content)),
  };
}
