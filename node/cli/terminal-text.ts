/**
 * Text from a document, a file name or a model reply as a terminal should show it: a line break
 * becomes ↵ (a value stays on its line) and other control characters become \u{…}, so that what a
 * document holds cannot move the cursor, recolour the terminal, retitle its window or hide the
 * text after it. Every line srag prints with such text goes through here (`srag sql`'s tables,
 * `srag why`, the `failed:` lines of an ingest).
 */
export function terminalText(text: string): string {
  return text.replace(/\r?\n/g, '↵').replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g, (character) => `\\u{${character.codePointAt(0)!.toString(16)}}`);
}
