/** The words of a text: lower case, split on anything that is not a letter or a digit. */
export function textWords(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** The longest phrase looked up among column values, in words ("united arab emirates" is 3). */
export const longestValuePhrase = 4;

/**
 * The phrases of a question that may be column values: every run of 1 to 4 consecutive words,
 * written as `textWords` joined by single spaces (the form the catalog stores values in).
 */
export function questionPhrases(question: string): string[] {
  const words = textWords(question);
  const phrases = new Set<string>();
  for (let start = 0; start < words.length; start += 1) {
    for (let length = 1; length <= longestValuePhrase && start + length <= words.length; length += 1) {
      phrases.add(words.slice(start, start + length).join(' '));
    }
  }
  return [...phrases];
}
