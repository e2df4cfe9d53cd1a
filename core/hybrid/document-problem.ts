/**
 * A document the SQL selected that a hybrid answer did not read: `missing` (it can no longer be
 * read from its source), `changed` (its content hash differs from the one its row was extracted
 * from, so the row and the text would disagree), or `unrecorded` (the store has no hash for it).
 */
export interface DocumentProblem {
  source: string;
  problem: 'missing' | 'changed' | 'unrecorded';
  /** One line for a user, naming the document and what to do. */
  message: string;
}
