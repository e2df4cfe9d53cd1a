import { checkTextLength } from '../query-budget.ts';

/** `parts.join(separator)`, refused before it is built when the text would be longer than a value may hold. */
export function joinText(parts: string[], separator = ''): string {
  let length = separator.length * Math.max(0, parts.length - 1);
  for (const part of parts) length += part.length;
  checkTextLength(length);
  return parts.join(separator);
}
