/**
 * The first line of a message, cut to `maxCharacters`: what an error keeps of a server's or an
 * engine's text (a stack, an HTML error page or a whole request echoed back stay out of one-line errors).
 */
export function firstLine(text: string, maxCharacters = Number.POSITIVE_INFINITY): string {
  return (text.split('\n')[0] ?? '').slice(0, maxCharacters);
}
