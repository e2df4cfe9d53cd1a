import { sqlFailure } from './sql-failure.ts';

/**
 * What one statement may spend in this engine. Generated SQL is untrusted and Apps Script gives a
 * custom function 30 seconds and one process's memory, so every kind of work and memory a query
 * causes is charged to one budget, and the query is stopped with a `SQL_FAILED` error that tells
 * the model how to write a cheaper one.
 */
export const queryLimits = {
  /**
   * Steps: a row read, a pair of rows a join compares, an expression evaluated once, an item of an
   * IN list compared, or `charactersPerStep` characters that a text function, LIKE or a regular
   * expression reads or writes.
   */
  steps: 20_000_000,
  /**
   * Estimated bytes of the rows and text a statement keeps: joined, generated, grouped, sorted,
   * output. The process holds two to four times as much (garbage, V8's own overhead).
   */
  memoryBytes: 64 * 1024 * 1024,
  /** The longest text one value may hold (characters); DuckDB has no such limit, a spreadsheet cell holds 50,000. */
  textLength: 10_000_000,
};

export const charactersPerStep = 16;

/** V8 keeps a small array in about 32 bytes plus 8 per element; a double or a string head adds about 16. */
const bytesPerRow = 32;
const bytesPerValue = 16;

export class QueryBudget {
  private steps = 0;
  private memoryBytes = 0;

  /** Charges `count` steps of work. */
  work(count: number): void {
    this.steps += count;
    if (this.steps > queryLimits.steps) {
      sqlFailure(`Out of Memory Error: the query touches too many rows for the spreadsheet SQL engine (more than ${queryLimits.steps.toLocaleString('en-US')} steps); filter or aggregate before joining`);
    }
  }

  /** Charges the work of reading or writing `length` characters. */
  text(length: number): void {
    this.work(Math.ceil(length / charactersPerStep));
  }

  /** Charges `count` rows of `width` values that the statement keeps. */
  rows(count: number, width: number): void {
    this.memory(count * (bytesPerRow + bytesPerValue * width));
  }

  /** Charges a string the statement keeps (two bytes a character), after checking its length. */
  keptText(length: number): void {
    checkTextLength(length);
    this.memory(bytesPerValue + 2 * length);
  }

  memory(bytes: number): void {
    this.memoryBytes += bytes;
    if (this.memoryBytes > queryLimits.memoryBytes) {
      sqlFailure(`Out of Memory Error: the query's rows and text would take more than ${queryLimits.memoryBytes / 1024 / 1024} MB in the spreadsheet SQL engine; filter or aggregate before joining, and select fewer rows`);
    }
  }
}

/** Refuses, before it is built, a text longer than one value may hold. */
export function checkTextLength(length: number): void {
  if (length > queryLimits.textLength) {
    sqlFailure(`Out of Memory Error: a text of ${length.toLocaleString('en-US')} characters is longer than the spreadsheet SQL engine holds in one value (${queryLimits.textLength.toLocaleString('en-US')}); build shorter text`);
  }
}
