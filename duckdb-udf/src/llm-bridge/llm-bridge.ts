import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import { firstLine, SragError, type SragErrorCode } from '../../../core/index.ts';
import type {
  BridgeReply, BridgeReplyValue, BridgeRequest, CallerReplyMessage, CallerRequest, CallerRequestMessage, PendingWrites,
} from './bridge-protocol.ts';
import { cancelThroughControlBuffer, controlSlots, createControlBuffer } from './control-buffer.ts';
import { startTypeScriptWorker } from './start-typescript-worker.ts';

/** A blocked call wakes this often to look at the cancel counter and the worker's health. */
const pollMilliseconds = 200;

export interface LlmBridgeOptions {
  environment?: Record<string, string | undefined>;
  /** Draw a progress bar on stderr (when it is a terminal) during long scans. */
  progress?: boolean;
  /** Share it to cancel from another thread (a CLI's UI thread while this one runs DuckDB). */
  control?: SharedArrayBuffer;
  /** Receives what the store must write: new cache entries, log entries, schemas. */
  onWrites: (writes: PendingWrites) => void;
}

/**
 * The DuckDB-callback side of the LLM bridge. DuckDB's table and scalar callbacks are synchronous
 * and run on this thread; model calls are not. `callSync` posts a request to the bridge worker and
 * blocks with `Atomics.wait` until the worker has posted its reply, then takes the reply with
 * `receiveMessageOnPort`, all without this thread's event loop. The worker starts on the first
 * call, so sessions that never call an srag function never pay for it.
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

  /** Sent before the first request once the worker starts (e.g. the cache copy). */
  queue(request: BridgeRequest): void {
    if (this.worker) this.post(request, 'async', this.nextId++);
    else this.queued.push(request);
  }

  /**
   * One request, answered before this returns; throws the worker's error, or CANCELLED. While it
   * waits, the worker may ask this thread for work only it can do (`onCallerRequest`, run here,
   * synchronously; see `CallerRequest`).
   */
  callSync<Type extends BridgeRequest['type']>(
    request: Extract<BridgeRequest, { type: Type }>,
    onCallerRequest?: (request: CallerRequest) => void,
  ): BridgeReplyValue[Type] {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    const generation = Atomics.load(this.control, controlSlots.cancel);
    this.post(request, 'sync', id);
    for (;;) {
      Atomics.store(this.control, controlSlots.reply, 0);
      for (let received = receiveMessageOnPort(this.syncPort!); received; received = receiveMessageOnPort(this.syncPort!)) {
        if ('callerRequestId' in (received.message as object)) {
          this.answerCallerRequest(received.message as CallerRequestMessage, onCallerRequest);
          continue;
        }
        const reply = received.message as BridgeReply;
        this.options.onWrites(reply.writes);
        if (reply.id === id) return unwrap(reply) as BridgeReplyValue[Type];
      }
      if (Atomics.load(this.control, controlSlots.cancel) !== generation) {
        throw new SragError({ code: 'CANCELLED', message: 'cancelled; rows extracted so far are cached, so running the statement again resumes' });
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
      this.post(request, 'async', id);
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

  private answerCallerRequest({ callerRequestId, request }: CallerRequestMessage, handle: ((request: CallerRequest) => void) | undefined): void {
    let reply: CallerReplyMessage;
    try {
      if (!handle) throw new SragError({ code: 'INPUT_INVALID', message: `the bridge asked for "${request.type}" during a call that cannot do it` });
      handle(request);
      reply = { callerRequestId, ok: true };
    } catch (error) {
      reply = {
        callerRequestId,
        ok: false,
        error: SragError.isInstance(error)
          ? { code: error.code, message: error.message, hint: error.hint }
          : { code: 'INTERNAL', message: firstLine(error instanceof Error ? error.message : String(error)) },
      };
    }
    this.syncPort!.postMessage(reply);
  }

  private post(request: BridgeRequest, reply: 'sync' | 'async', id: number): void {
    this.worker!.postMessage({ id, reply, request });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const channel = new MessageChannel();
    this.syncPort = channel.port1;
    this.worker = startTypeScriptWorker(new URL('./bridge-worker.ts', import.meta.url), {
      control: this.controlBuffer,
      syncPort: channel.port2,
      environment: { ...(this.options.environment ?? process.env) },
      progress: this.options.progress ?? true,
    }, [channel.port2]);
    // A forgotten bridge must not keep the process alive; pending asynchronous calls ref it.
    this.worker.unref();
    this.worker.on('message', (reply: BridgeReply) => {
      this.options.onWrites(reply.writes);
      const call = this.asyncCalls.get(reply.id);
      if (!call) return;
      this.asyncCalls.delete(reply.id);
      if (this.asyncCalls.size === 0) this.worker?.unref();
      try {
        call.resolve(unwrap(reply));
      } catch (error) {
        call.reject(error);
      }
    });
    this.worker.on('error', (error) => {
      for (const call of this.asyncCalls.values()) call.reject(error);
      this.asyncCalls.clear();
    });
    const queued = this.queued;
    this.queued = [];
    for (const request of queued) this.post(request, 'async', this.nextId++);
    return this.worker;
  }
}

function unwrap(reply: BridgeReply): unknown {
  if (reply.ok) return reply.value;
  throw new SragError({ code: (reply.error.code === 'INTERNAL' ? 'LLM_REQUEST_FAILED' : reply.error.code) as SragErrorCode, message: reply.error.message, hint: reply.error.hint });
}
