import { SragError, type SragErrorCode } from '../../../core/index.ts';
import type { JournalEntry } from '../../duckdb/store/journal-entry.ts';
import type { BridgeMessage, JournalAck } from './bridge-protocol.ts';

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * The bridge's way to the store: each write is posted to the thread that owns DuckDB, which
 * journals it at once (see `StoreJournal`), and the promise settles when that thread has
 * acknowledged it — so a record counts as saved only once it is durable, and a write the
 * database refuses (a full disk) reaches the run as a `STORE_FAILED` error.
 *
 * Writes made in one turn of the event loop (a reply and the record it became, several replies
 * that arrived together) go as one message, which that thread commits at once: a commit per write
 * kept it busy committing while the scan waited for its rows.
 */
export class JournalChannel {
  private nextId = 1;
  private readonly pending = new Map<number, Waiter[]>();
  private batch: { entries: JournalEntry[]; waiters: Waiter[] } | undefined;
  private idleWaiters: Array<() => void> = [];
  /** The first write the database refused: every later write is refused with it (the journal keeps its order). */
  private failure: SragError | undefined;

  constructor(private readonly post: (message: BridgeMessage) => void) {}

  write(entries: JournalEntry[]): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (!this.batch) {
      this.batch = { entries: [], waiters: [] };
      setImmediate(() => this.send());
    }
    const batch = this.batch;
    batch.entries.push(...entries);
    return new Promise<void>((resolve, reject) => batch.waiters.push({ resolve, reject }));
  }

  acknowledge(ack: JournalAck): void {
    const waiters = this.pending.get(ack.id);
    if (!waiters) return;
    this.pending.delete(ack.id);
    if (ack.error) {
      const code = (ack.error.code === 'INTERNAL' ? 'STORE_FAILED' : ack.error.code) as SragErrorCode;
      this.failure ??= new SragError({ code, message: ack.error.message, hint: ack.error.hint });
      for (const waiter of waiters) waiter.reject(this.failure);
    } else {
      for (const waiter of waiters) waiter.resolve();
    }
    this.wakeIfIdle();
  }

  /** Resolves once every write made so far is acknowledged. */
  idle(): Promise<void> {
    if (this.pending.size === 0 && !this.batch) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private send(): void {
    const batch = this.batch!;
    this.batch = undefined;
    if (this.failure) {
      for (const waiter of batch.waiters) waiter.reject(this.failure);
      return this.wakeIfIdle();
    }
    const id = this.nextId++;
    this.pending.set(id, batch.waiters);
    this.post({ type: 'journal', id, entries: batch.entries });
  }

  private wakeIfIdle(): void {
    if (this.pending.size > 0 || this.batch) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
