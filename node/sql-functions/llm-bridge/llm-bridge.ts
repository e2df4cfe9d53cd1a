import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import { firstLine, SragError, type SragErrorCode } from '../../../core/index.ts';
import type { JournalEntry } from '../../duckdb/store/journal-entry.ts';
import type {
  BridgeMessage, BridgeReply, BridgeReplyValue, BridgeRequest, CallerReply, CallerRequest, JournalAck, SerializedError,
} from './bridge-protocol.ts';
import { cancelThroughControlBuffer, controlSlots, createControlBuffer } from './control-buffer.ts';
import { startWorker } from '../../runtime/workers/start-worker.ts';

/** The bridge worker's module (see `prepareWorkerBundle` to have it start fast). */
export const bridgeWorkerUrl = new URL('./bridge-worker.ts', import.meta.url);

/** A blocked call wakes this often to look at the cancel counter and the worker's health. */
const pollMilliseconds = 200;

export interface LlmBridgeOptions {
  environment?: Record<string, string | undefined>;
  /** Draw a progress bar on stderr (when it is a terminal) during long scans. */
  progress?: boolean;
  /** See `OpenSragDatabaseOptions.documentsPerScanRun`. */
  documentsPerScanRun?: number;
  /** Share it to cancel from another thread (a CLI's UI thread while this one runs DuckDB). */
  control?: SharedArrayBuffer;
  /**
   * Makes the bridge's store writes durable before returning (the store's journal); throws when
   * it cannot. Called on this thread, also while it is blocked in a DuckDB callback.
   */
  onJournal: (entries: JournalEntry[]) => void;
  /**
   * Does what the worker asks of the thread blocked in a DuckDB callback (see `CallerRequest`):
   * the database's exports. Without it such a request fails.
   */
  answerCaller?: (request: CallerRequest) => void;
}

/**
 * The DuckDB-callback side of the LLM bridge. DuckDB's table and scalar callbacks are synchronous
 * and run on this thread; model calls are not. `callSync` posts a request to the bridge worker and
 * blocks with `Atomics.wait` until the worker has posted its reply, then takes the reply with
 * `receiveMessageOnPort`, all without this thread's event loop. While it waits it also takes the
 * worker's store writes, journals them and acknowledges them, so every reply is saved as it
 * arrives. The worker starts on the first call, so sessions that never call an srag function
 * never pay for it.
 */
export class LlmBridge {
  readonly controlBuffer: SharedArrayBuffer;
  private readonly control: Int32Array;
  private worker: Worker | undefined;
  private syncPort: MessagePort | undefined;
  private nextId = 1;
  private readonly asyncCalls = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
  private queued: BridgeRequest[] = [];

  constructor(private readonly options: LlmBridgeOptions) {
    this.controlBuffer = options.control ?? createControlBuffer();
    this.control = new Int32Array(this.controlBuffer);
  }

  /** Sent before the first request once the worker starts (what it keeps at hand). */
  queue(request: BridgeRequest): void {
    if (this.worker) this.post(request, this.nextId++);
    else this.queued.push(request);
  }

  /**
   * One request, answered before this returns; throws the worker's error, or CANCELLED. While it
   * waits, the worker may ask this thread for work only it can do (`answerCaller`, run here,
   * synchronously; see `CallerRequest`).
   */
  callSync<Type extends BridgeRequest['type']>(request: Extract<BridgeRequest, { type: Type }>): BridgeReplyValue[Type] {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    const generation = Atomics.load(this.control, controlSlots.cancel);
    this.post(request, id);
    for (;;) {
      Atomics.store(this.control, controlSlots.reply, 0);
      const messages: BridgeMessage[] = [];
      for (let received = receiveMessageOnPort(this.syncPort!); received; received = receiveMessageOnPort(this.syncPort!)) messages.push(received.message as BridgeMessage);
      let mine: BridgeReply | undefined;
      this.handle(messages, (reply) => {
        if (reply.id === id) mine = reply;
        else this.settleAsync(reply);
      }, this.options.answerCaller);
      if (mine) return unwrap(mine) as BridgeReplyValue[Type];
      if (Atomics.load(this.control, controlSlots.cancel) !== generation) {
        throw new SragError({ code: 'CANCELLED', message: 'cancelled; rows extracted so far are saved, so running the statement again resumes' });
      }
      if (Atomics.load(this.control, controlSlots.failed) !== 0) {
        void worker.terminate();
        throw new SragError({ code: 'LLM_REQUEST_FAILED', message: 'the LLM bridge worker could not start or stopped; see the message above' });
      }
      Atomics.wait(this.control, controlSlots.reply, 0, pollMilliseconds);
    }
  }

  /** The same request without blocking, for use outside DuckDB callbacks. */
  callAsync<Type extends BridgeRequest['type']>(request: Extract<BridgeRequest, { type: Type }>): Promise<BridgeReplyValue[Type]> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    worker.ref();
    return new Promise<BridgeReplyValue[Type]>((resolve, reject) => {
      this.asyncCalls.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.post(request, id);
    });
  }

  get started(): boolean {
    return this.worker !== undefined;
  }

  cancel(): void {
    cancelThroughControlBuffer(this.controlBuffer);
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
    this.syncPort?.close();
  }

  /**
   * Journals every write among `messages` with one commit, acknowledges each, does the caller
   * requests (only a blocked call can: `onCallerRequest`), and passes replies on.
   */
  private handle(messages: BridgeMessage[], onReply: (reply: BridgeReply) => void, onCallerRequest?: (request: CallerRequest) => void): void {
    const writes = messages.filter((message): message is Extract<BridgeMessage, { type: 'journal' }> => message.type === 'journal');
    if (writes.length > 0) {
      let error: SerializedError | undefined;
      try {
        this.options.onJournal(writes.flatMap((write) => write.entries));
      } catch (failure) {
        error = SragError.isInstance(failure)
          ? { code: failure.code, message: failure.message, hint: failure.hint }
          : { code: 'STORE_FAILED', message: failure instanceof Error ? failure.message : String(failure) };
      }
      for (const write of writes) this.worker?.postMessage({ type: 'journal-ack', id: write.id, error } satisfies JournalAck);
    }
    for (const message of messages) {
      if (message.type === 'reply') onReply(message);
      else if (message.type === 'caller-request') this.answerCallerRequest(message, onCallerRequest);
    }
  }

  private answerCallerRequest({ id, request }: { id: number; request: CallerRequest }, handle: ((request: CallerRequest) => void) | undefined): void {
    let error: SerializedError | undefined;
    try {
      if (!handle) throw new SragError({ code: 'INPUT_INVALID', message: `the bridge asked for "${request.type}" outside a call that can do it` });
      handle(request);
    } catch (failure) {
      error = SragError.isInstance(failure)
        ? { code: failure.code, message: failure.message, hint: failure.hint }
        : { code: 'INTERNAL', message: firstLine(failure instanceof Error ? failure.message : String(failure)) };
    }
    this.worker?.postMessage({ type: 'caller-reply', id, error } satisfies CallerReply);
  }

  private settleAsync(reply: BridgeReply): void {
    const call = this.asyncCalls.get(reply.id);
    if (!call) return;
    this.asyncCalls.delete(reply.id);
    if (this.asyncCalls.size === 0) this.worker?.unref();
    try {
      call.resolve(unwrap(reply));
    } catch (error) {
      call.reject(error);
    }
  }

  private post(request: BridgeRequest, id: number): void {
    this.worker!.postMessage({ type: 'request', id, request });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const channel = new MessageChannel();
    this.syncPort = channel.port1;
    this.worker = startWorker(bridgeWorkerUrl, {
      control: this.controlBuffer,
      syncPort: channel.port2,
      environment: { ...(this.options.environment ?? process.env) },
      progress: this.options.progress ?? true,
      documentsPerScanRun: this.options.documentsPerScanRun,
    }, [channel.port2]);
    // A forgotten bridge must not keep the process alive; pending asynchronous calls ref it.
    this.worker.unref();
    // Outside a blocking call, replies and writes arrive as ordinary messages. Those already queued
    // behind the first are taken with it, so that the writes among them are committed once: a
    // commit per message let a backlog of writes hold this thread (and DuckDB's next callback) up.
    const port = this.syncPort;
    port.on('message', (first: BridgeMessage) => {
      const messages = [first];
      for (let received = receiveMessageOnPort(port); received; received = receiveMessageOnPort(port)) messages.push(received.message as BridgeMessage);
      this.handle(messages, (reply) => this.settleAsync(reply));
    });
    this.syncPort.unref();
    this.worker.on('error', (error) => {
      for (const call of this.asyncCalls.values()) call.reject(error);
      this.asyncCalls.clear();
    });
    const queued = this.queued;
    this.queued = [];
    for (const request of queued) this.post(request, this.nextId++);
    return this.worker;
  }
}

function unwrap(reply: BridgeReply): unknown {
  if (reply.ok) return reply.value;
  throw new SragError({ code: (reply.error.code === 'INTERNAL' ? 'LLM_REQUEST_FAILED' : reply.error.code) as SragErrorCode, message: reply.error.message, hint: reply.error.hint, fix: reply.error.fix });
}
