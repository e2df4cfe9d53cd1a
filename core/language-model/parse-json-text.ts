/**
 * Read a JSON value out of a model reply that may wrap it in prose or a ```json fence, as models
 * without structured output do. Returns `{ ok: false, problem }` rather than throwing: the caller
 * decides between retrying and re-asking.
 */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  // The candidates in order — the whole text, a fence's content, the first balanced object — each
  // found only when the one before it did not parse: a reply of plain JSON (structured output, the
  // usual case) is read once, not also searched for a fence and scanned for braces.
  const candidates: Array<() => string | undefined> = [
    () => text.trim(),
    () => /```(?:json|JSON)?\s*\n?([\s\S]*?)```/.exec(text)?.[1]?.trim(),
    () => firstBalancedObject(text),
  ];
  let lastProblem = 'the reply holds no JSON object';
  for (const find of candidates) {
    const candidate = find();
    if (!candidate) continue;
    try {
      return { ok: true, value: JSON.parse(candidate) };
    } catch (error) {
      lastProblem = `the reply is not valid JSON: ${syntaxErrorDetail(error as Error)}`;
    }
  }
  return { ok: false, problem: lastProblem };
}

/**
 * What JSON.parse said, without its own "… is not valid JSON" ending: "Unexpected token 'S',
 * \"Sure! Here\"...". Nor the " (line 1 column 23)" V8 12 and later (Node 22, 24) add after "at
 * position 22": the reply is one text, and the one-line error would hold a parenthesis in a parenthesis.
 */
function syntaxErrorDetail(error: Error): string {
  return error.message.replace(/ is not valid JSON$/, '').replace(/ \(line \d+ column \d+\)$/, '');
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
