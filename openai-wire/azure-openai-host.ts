/** Hosts of Azure OpenAI resources: the classic resource, the AI Services one, Azure AI Foundry's. */
const azureHost = /^https?:\/\/(?:[^/@]*@)?[^/]+\.(?:openai\.azure\.com|cognitiveservices\.azure\.com|services\.ai\.azure\.com)(?:[:/?#]|$)/i;

/**
 * Whether `baseUrl` is an Azure OpenAI resource's, whose key goes in the `api-key` header, as the
 * openai SDK's AzureOpenAI client sends it (its `authHeaders`); a look-alike path elsewhere is not.
 */
export function isAzureOpenAiHost(baseUrl: string): boolean {
  return azureHost.test(baseUrl.trim());
}
