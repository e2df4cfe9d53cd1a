/**
 * The bounds of the sandbox that runs generated SQL. Time: a runaway query (a cross join of a
 * large table with itself) is interrupted. Memory: DuckDB's own default is 80% of the machine; a
 * generated query gets a fixed share, and nothing spills to disk (a spilling sort of a large
 * table wrote gigabytes into the user's working directory). Neither holds inside DuckDB for
 * everything (a list of a hundred million numbers is built outside its memory limit, in one step
 * no interrupt reaches), so the query runs in a process of its own that is ended past its time or
 * its process memory. Threads: the sandbox shares the machine with the model calls of the same
 * process. Result: what reaches JavaScript is bounded in rows and characters, so a query that
 * returns three million rows or a 300 MB string is cut, and says so, instead of taking the
 * process down; nested values are cut in DuckDB before they are turned into JSON.
 */
export interface SandboxLimits {
  timeoutMilliseconds: number;
  /** DuckDB's `memory_limit`, in megabytes. */
  memoryMegabytes: number;
  /**
   * The resident memory of the sandbox's process, in megabytes, above which it is ended: DuckDB's
   * limit plus what it allocates outside it, Node and the result (Linux; elsewhere time alone bounds it).
   */
  processMemoryMegabytes: number;
  threads: number;
  /**
   * Sandboxes one engine runs at once. One for a command (its questions come one at a time);
   * `srag serve` answers several questions together, each sandbox within the bounds above.
   */
  concurrentQueries: number;
  maximumRows: number;
  /** Characters kept per cell; fewer when many text columns share a chunk (see `readBoundedResult`). */
  maximumCellCharacters: number;
  /** Characters (all cells together) a result may hold in JavaScript. */
  maximumResultCharacters: number;
  /**
   * How long a sandbox process keeps its DuckDB between requests (see sandbox-process.ts): a kept
   * one holds 20–30 MB more than the process alone, which an idle `srag serve` need not carry.
   */
  keptSandboxIdleMilliseconds: number;
}

export const sandboxLimits: SandboxLimits = {
  timeoutMilliseconds: 30_000,
  memoryMegabytes: 500,
  processMemoryMegabytes: 1024,
  threads: 2,
  concurrentQueries: 1,
  maximumRows: 10_000,
  maximumCellCharacters: 10_000,
  maximumResultCharacters: 8_000_000,
  keptSandboxIdleMilliseconds: 10_000,
};
