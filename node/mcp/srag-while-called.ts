import type { Srag } from '../index.ts';

/** Runs one tool call's work with the database open. */
export type UseSrag = <T>(work: (srag: Srag) => Promise<T>) => Promise<T>;

/**
 * The database open only while a tool call runs: the first call opens it, calls that overlap share
 * it, and the last to finish closes it. An assistant starts `srag mcp` with its own start and keeps
 * it for hours; holding the DuckDB file all that time would lock out `srag ingest` and every other
 * srag process on the same file, so between calls the file is free. (One open per process at a
 * time: DuckDB refuses a second instance over a file this process already holds.)
 */
export function sragWhileCalled(open: () => Promise<Srag>): UseSrag {
  let opening: Promise<Srag> | undefined;
  let opened: Srag | undefined;
  let calls = 0;
  return async (work) => {
    calls += 1;
    try {
      opening ??= open().then((srag) => (opened = srag));
      return await work(await opening);
    } finally {
      calls -= 1;
      if (calls === 0) {
        // Synchronous from here: a call arriving next finds nothing open and opens anew.
        const last = opened;
        opening = undefined;
        opened = undefined;
        last?.close();
      }
    }
  };
}
