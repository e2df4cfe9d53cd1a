/**
 * Read a JSON value out of a model reply that may wrap it in prose or a ```json fence, as models
 * without structured output do. Returns `{ ok: false, problem }` rather than throwing: the caller
 * decides between retrying and re-asking.
 */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  const candidates: string[] = [text.trim()];
  const fence = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/.exec(text);
  if (fence?.[1]) candidates.push(fence[1].trim());
  const balanced = firstBalancedObject(text);
  if (balanced) candidates.push(balanced);
  let lastProblem = 'the reply holds no JSON object';
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      return { ok: true, value: JSON.parse(candidate) };
    } catch (error) {
      lastProblem = `the reply is not valid JSON: ${syntaxErrorDetail(error as Error)}`;
    }
  }
  return { ok: false, problem: lastProblem };
}

/** What JSON.parse said, without its own "… is not valid JSON" ending: "Unexpected token 'S', \"Sure! Here\"..." */
function syntaxErrorDetail(error: Error): string {
  return error.message.replace(/ is not valid JSON$/, '');
}

/** The first `{…}` span whose braces balance outside of strings. */
function firstBalancedObject(text: string): string | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const character = text[index];
    if (inString) {
      if (character === '\\') index += 1;
      else if (character === '"') inString = false;
    } else if (character === '"') inString = true;
    else if (character === '{') depth += 1;
    else if (character === '}') {
      depth -= 1;
      if (depth === 0) return text.slice(start, index + 1);
    }
  }
  return undefined;
}
