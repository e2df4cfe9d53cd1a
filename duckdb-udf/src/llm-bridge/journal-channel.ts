import { SragError, type SragErrorCode } from '../../../core/index.ts';
import type { JournalEntry } from '../store/journal-entry.ts';
import type { BridgeMessage, JournalAck } from './bridge-protocol.ts';

/**
 * The bridge's way to the store: each write is posted to the thread that owns DuckDB, which
 * journals it at once (see `StoreJournal`), and the promise settles when that thread has
 * acknowledged it — so a record counts as saved only once it is durable, and a write the
 * database refuses (a full disk) reaches the run as a `STORE_FAILED` error.
 */
export class JournalChannel {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: () => void; reject: (error: unknown) => void }>();
  private idleWaiters: Array<() => void> = [];
  /** The first write the database refused: every later write is refused with it (the journal keeps its order). */
  private failure: SragError | undefined;

  constructor(private readonly post: (message: BridgeMessage) => void) {}

  write(entries: JournalEntry[]): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.post({ type: 'journal', id, entries });
    });
  }

  acknowledge(ack: JournalAck): void {
    const waiting = this.pending.get(ack.id);
    if (!waiting) return;
    this.pending.delete(ack.id);
    if (ack.error) {
      const code = (ack.error.code === 'INTERNAL' ? 'STORE_FAILED' : ack.error.code) as SragErrorCode;
      this.failure ??= new SragError({ code, message: ack.error.message, hint: ack.error.hint });
      waiting.reject(this.failure);
    } else {
      waiting.resolve();
    }
    if (this.pending.size === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  /** Resolves once every write posted so far is acknowledged. */
  idle(): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}
