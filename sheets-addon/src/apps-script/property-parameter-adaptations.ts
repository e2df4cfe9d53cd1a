import { ParameterAdaptations, endpointIdentity, type ParameterAdaptation } from '../../../openai-wire/index.ts';

/** One document property holds what every endpoint was found to refuse, by endpoint and model: parameter names only. */
const property = 'srag.endpointAdaptations';

/**
 * The add-on's memory of what an endpoint refuses (see openai-wire's `ParameterAdaptations`): each
 * execution is short, so without it every one would pay the endpoint's refusal again before
 * adapting. Kept in the document properties (a few hundred bytes; never a key: the base URL is kept
 * without credentials or query); a write the store refuses costs one refused request next time.
 */
export function propertyParameterAdaptations(baseUrl: string): ParameterAdaptations {
  const properties = PropertiesService.getDocumentProperties();
  const endpoint = endpointIdentity(baseUrl);
  const read = (): Record<string, Record<string, ParameterAdaptation>> => {
    try {
      return JSON.parse(properties.getProperty(property) ?? '{}') as Record<string, Record<string, ParameterAdaptation>>;
    } catch {
      return {};
    }
  };
  return new ParameterAdaptations(read()[endpoint] ?? {}, (model, adaptation) => {
    const all = read();
    all[endpoint] = { ...all[endpoint], [model]: adaptation };
    try {
      properties.setProperty(property, JSON.stringify(all));
    } catch {
      // The property store is full: the adaptation lasts this execution.
    }
  });
}
