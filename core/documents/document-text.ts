import { reduceHtml } from './reduce-html.ts';

/** Extensions `documentText` knows; other files are still read, as plain text. */
export const supportedDocumentExtensions: readonly string[] = ['.txt', '.md', '.markdown', '.html', '.htm', '.json'];

/**
 * The text a document file puts in a prompt, chosen by the extension of `path` (case-insensitive):
 * HTML is reduced to readable text, JSON that parses is rendered as `key.path: value` lines (unparsable
 * JSON stays raw, and so does JSON whose lines would be many times its size, see `jsonRenderingLimit`),
 * everything else is taken as it is. A leading byte-order mark is dropped and line ends become `\n`
 * in every case. No nesting, however deep, makes it throw.
 */
export function documentText(path: string, content: string): string {
  const text = content.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const extension = extensionOf(path);
  if (extension === '.html' || extension === '.htm') return reduceHtml(text);
  if (extension === '.json') return jsonText(text);
  return text;
}

function extensionOf(path: string): string {
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

function jsonText(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  return jsonLines(value, jsonRenderingLimit(text.length))?.join('\n') ?? text;
}

/**
 * The most characters the lines of a JSON file may take: sixteen times the file, and 64 KB more for
 * tiny ones. Key paths repeat every key above a value, so a file nested thousands deep with a value
 * at each level grows with the square of its depth (360 KB made 1.8 GB of lines); past this the
 * file's own text is clearer than its lines, and is read instead.
 */
function jsonRenderingLimit(fileLength: number): number {
  return 16 * fileLength + 65_536;
}

/**
 * One line per scalar: object keys joined by dots, array elements as `[index]`
 * (`teams[0].name: Brazil`). Empty objects and arrays are kept as `{}` / `[]` so that their keys
 * still show. Walked with a stack of its own rather than by recursion, so that no nesting exhausts
 * the call stack (JSON.parse reads 100,000 levels); undefined when the lines would pass `limit` characters.
 */
function jsonLines(root: unknown, limit: number): string[] | undefined {
  const lines: string[] = [];
  let length = 0;
  /** The arrays and objects being walked, innermost last, each with the position of its next child. */
  const open: Array<{ keyPath: string; container: unknown[] | Record<string, unknown>; keys: string[] | undefined; next: number }> = [];
  const visit = (value: unknown, keyPath: string): boolean => {
    let line: string | undefined;
    if (Array.isArray(value)) {
      if (value.length === 0) line = labelled(keyPath, '[]');
      else open.push({ keyPath, container: value, keys: undefined, next: 0 });
    } else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value);
      if (keys.length === 0) line = labelled(keyPath, '{}');
      else open.push({ keyPath, container: value as Record<string, unknown>, keys, next: 0 });
    } else {
      line = labelled(keyPath, typeof value === 'string' ? value : String(value));
    }
    if (line === undefined) return true;
    length += line.length + 1;
    lines.push(line);
    return length <= limit;
  };
  if (!visit(root, '')) return undefined;
  while (open.length > 0) {
    const walked = open[open.length - 1]!;
    const { keyPath, container, keys } = walked;
    if (walked.next >= (keys ?? (container as unknown[])).length) {
      open.pop();
      continue;
    }
    const position = walked.next;
    walked.next += 1;
    const fits = keys === undefined
      ? visit((container as unknown[])[position], `${keyPath}[${position}]`)
      : visit((container as Record<string, unknown>)[keys[position]!], keyPath === '' ? keys[position]! : `${keyPath}.${keys[position]!}`);
    if (!fits) return undefined;
  }
  return lines;
}

function labelled(keyPath: string, text: string): string {
  return keyPath === '' ? text : `${keyPath}: ${text}`;
}
