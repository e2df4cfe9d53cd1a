import type { UseSrag } from './srag-while-called.ts';

/** What every tool handler is given: the database for the length of the call, and the redaction every text passes. */
export interface ToolContext {
  useSrag: UseSrag;
  /** Removes the configured key and endpoint credentials (and anything key-shaped) from a text. */
  redact: (text: string) => string;
}
