/**
 * The record's property names from an extraction system message: the `- "name" (kind): …` lines
 * under the "Properties" line (see core's `renderSchemaForPrompt`), names read as JSON strings. A
 * child entity's list (`- "rooms" (list): …`, its items' properties indented under it) is not a
 * property: `readPromptEntities` reads those. Undefined when the message has no such list.
 */
export function readPromptPropertyNames(systemMessage: string): string[] | undefined {
  const lines = readPromptPropertyLines(systemMessage);
  const names = lines.filter((line) => line.indented === false && !line.list).map((line) => line.name);
  return names.length ? names : undefined;
}

/** The child entities the same list declares: entity name → its items' property names. */
export function readPromptEntities(systemMessage: string): Map<string, string[]> {
  const entities = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of readPromptPropertyLines(systemMessage)) {
    if (line.list) entities.set(line.name, current = []);
    else if (!line.indented) current = undefined;
    else current?.push(line.name);
  }
  return entities;
}

function readPromptPropertyLines(systemMessage: string): Array<{ name: string; indented: boolean; list: boolean }> {
  const header = /^Properties\b.*$/m.exec(systemMessage);
  if (!header) return [];
  const lines = [];
  for (const line of systemMessage.slice(header.index + header[0].length + 1).split('\n')) {
    const match = /^( *)- ("(?:[^"\\]|\\.)*") \(([^)]*)\)/.exec(line);
    if (!match) break;
    lines.push({ name: JSON.parse(match[2]!) as string, indented: match[1] !== '', list: match[1] === '' && match[3] === 'list' });
  }
  return lines;
}
