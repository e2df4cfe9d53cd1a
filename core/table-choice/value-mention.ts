/** A phrase of the question that is a value of a column (`Lisbon` in `cities.city`). */
export interface ValueMention {
  table: string;
  column: string;
  /** The phrase as `questionPhrases` wrote it: lower-case words joined by single spaces. */
  phrase: string;
}
