/**
 * A value an answer rests on that lies far from the rest of its column (see `findColumnOutliers`):
 * named with its document so the user can check its quote (`srag why`); the number is not changed.
 */
export interface ColumnOutlier {
  value: number;
  /** The document (`_source`) whose row holds it. */
  document: string;
  /** `highest`: it lies far above the rest; `lowest`: far below. */
  side: 'highest' | 'lowest';
  /** The value of the rest nearest to it. */
  next: number;
  /** How many times the next value it is (or the next is it, for `lowest`), when that is how it stands apart. */
  times?: number;
  /** The smallest and largest of the rest, when it stands apart by the gap to them. */
  rest?: { lowest: number; highest: number };
  /**
   * The command that shows its quote, `srag why DOCUMENT COLUMN`, for the surfaces that pass the
   * coverage on as data (`srag ask --json`, `POST /query`, `srag_ask`'s coverage column); a surface
   * that knows the database adds `--db` and `--table` in its own note (`DescribeCoverageOptions`).
   */
  why: string;
}
