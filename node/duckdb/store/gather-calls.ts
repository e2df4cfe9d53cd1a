import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * Calls that arrive while one is waiting for the connection share its turn: the first queues one
 * run of `work` (through `queue`, the store's `exclusive`), which takes every item waiting by then
 * and gives each caller its own result (`work` returns them in the items' order); a failure of
 * `work` rejects every caller of that turn. A call arriving while that turn runs starts the next.
 */
export function gatherCalls<T, R>(
  queue: (turn: (connection: DuckDBConnection) => Promise<void>) => unknown,
  work: (connection: DuckDBConnection, items: T[]) => Promise<R[]>,
): (item: T) => Promise<R> {
  let waiting: Array<{ item: T; resolve: (result: R) => void; reject: (error: unknown) => void }> = [];
  const turn = async (connection: DuckDBConnection): Promise<void> => {
    const taken = waiting;
    waiting = [];
    try {
      const results = await work(connection, taken.map((call) => call.item));
      for (let index = 0; index < taken.length; index += 1) taken[index]!.resolve(results[index]!);
    } catch (error) {
      for (const call of taken) call.reject(error);
    }
  };
  return (item) => new Promise<R>((resolve, reject) => {
    waiting.push({ item, resolve, reject });
    if (waiting.length === 1) void queue(turn);
  });
}
