/**
 * The record's property names from an extraction system message: the `- "name" (kind): …` lines
 * under the "Properties" line (see core's `renderSchemaForPrompt`), names read as JSON strings.
 * Undefined when the message has no such list.
 */
export function readPromptPropertyNames(systemMessage: string): string[] | undefined {
  const header = /^Properties\b.*$/m.exec(systemMessage);
  if (!header) return undefined;
  const names: string[] = [];
  for (const line of systemMessage.slice(header.index + header[0].length + 1).split('\n')) {
    const match = /^- ("(?:[^"\\]|\\.)*") \(/.exec(line);
    if (!match) break;
    names.push(JSON.parse(match[1]!) as string);
  }
  return names.length ? names : undefined;
}
