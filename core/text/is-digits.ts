/**
 * Whether `text` is from `fewest` to `most` ASCII digits and nothing else: what `/^\d{fewest,most}$/`
 * matches, without a regular expression (the evidence check asks it of every token it judges).
 */
export function isDigits(text: string, fewest: number, most: number): boolean {
  if (text.length < fewest || text.length > most) return false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 48 || code > 57) return false;
  }
  return true;
}
