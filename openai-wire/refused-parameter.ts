import type { ErrorDetail } from './read-error-body.ts';

/**
 * How endpoints name a request field they refuse, each seen in public issue threads:
 * - OpenAI: "Unsupported value: 'temperature' does not support 0 with this model. Only the default
 *   (1) value is supported." (code `unsupported_value`), "Unsupported parameter: 'max_tokens' is not
 *   supported with this model. Use 'max_completion_tokens' instead." (code `unsupported_parameter`),
 *   and for older refusals "Unrecognized request argument supplied: reasoning_effort";
 * - Gemini's OpenAI endpoint: "Invalid JSON payload received. Unknown name \"reasoning\": Cannot find field.";
 * - others: "'x' is not supported".
 */
const namings = [
  /Unsupported (?:parameter|value): '([\w.]+)'/i,
  /Unrecognized request arguments? supplied: ([\w.]+)/i,
  /Unknown name "([\w.]+)"/i,
  /'([\w.]+)' is not supported/i,
];
const replacementNaming = /Use '([\w.]+)' instead/i;

/**
 * The parameter a 400 says the endpoint refuses, and the one it says to send instead: from the
 * message, else from `param` when the code says unsupported (`unsupported_value`,
 * `unsupported_parameter`). Undefined when it names none.
 */
export function refusedParameter(body: ErrorDetail | undefined): { name: string; replacement?: string } | undefined {
  if (!body) return undefined;
  const message = body.message ?? '';
  let name: string | undefined;
  for (const naming of namings) {
    name = naming.exec(message)?.[1];
    if (name) break;
  }
  if (!name && /^unsupported_(?:value|parameter)$/.test(body.code ?? '') && body.param) name = body.param;
  if (!name) return undefined;
  const replacement = replacementNaming.exec(message)?.[1];
  return replacement ? { name, replacement } : { name };
}
