/**
 * `text.replace(/\s+/g, ' ')`: every run of whitespace made one space. The text itself when it has
 * no run to change (no whitespace but single ASCII spaces), the usual value or quote: the global
 * replace built a new string even then, and cost more than the rest of reading a short value.
 */
export function singleSpaced(text: string): string {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 32 ? text.charCodeAt(index + 1) === 32 : (code >= 9 && code <= 13) || (code > 127 && whitespace.test(text[index]!))) {
      return text.replace(whitespaceRun, ' ');
    }
  }
  return text;
}

const whitespace = /\s/;
const whitespaceRun = /\s+/g;
