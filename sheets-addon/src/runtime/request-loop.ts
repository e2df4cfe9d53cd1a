import { SragError } from '../../../core/index.ts';
import { TransportFailure, type HttpRequest, type HttpResponse, type HttpTransport } from '../../../openai-wire/index.ts';
import type { FetchAllTransport } from './fetch-all-transport.ts';
import { LoopAbortSignal, type StopReason } from './loop-abort-signal.ts';
import { settleNow } from './settle-now.ts';

export interface RequestLoopOptions {
  transport: FetchAllTransport;
  /** Blocks the execution (Utilities.sleep); only called when nothing else can make progress. */
  block(milliseconds: number): void;
  now(): number;
  /** After this instant no request is sent and no retry waits: work in flight winds down instead. */
  deadline: number;
  /** Requests per `sendAll` (UrlFetchApp.fetchAll); the model client's concurrency bounds it too. */
  maxBatchSize: number;
  /** Asked between rounds, e.g. whether the user pressed Stop in the sidebar. */
  shouldStop?: () => boolean;
}

interface PendingRequest {
  request: HttpRequest;
  resolve(response: HttpResponse): void;
  reject(reason: unknown): void;
}

interface PendingTimer {
  at: number;
  resolve(): void;
}

/**
 * A synchronous event loop for one Apps Script execution.
 *
 * Core's async functions run until every one of them waits on a model reply or a retry delay;
 * the loop then sends all waiting requests in one `fetchAll`, settles them (which runs the waiting
 * code on, synchronously, until it waits again), and repeats; when only delays remain it sleeps
 * until the earliest. Many documents thus share each round trip while retry policy stays in core
 * (the model client decides whether and how long to wait; the loop only keeps the time).
 */
export class RequestLoop {
  /** Handed to core as its abort signal: set when the deadline passes or Stop is pressed. */
  readonly abortSignal = new LoopAbortSignal();
  private readonly queue: PendingRequest[] = [];
  private readonly timers: PendingTimer[] = [];
  /** Requests sent so far, e.g. for progress reports and tests. */
  requestsSent = 0;

  constructor(private readonly options: RequestLoopOptions) {}

  /**
   * Queue a request; it is sent with the others in the next round. This is the wire's transport
   * in Sheets; a request that got no response rejects with a `TransportFailure`.
   */
  readonly send: HttpTransport = (request: HttpRequest): Promise<HttpResponse> => {
    return new Promise<HttpResponse>((resolve, reject) => {
      if (this.abortSignal.aborted) reject(this.stoppedError());
      else this.queue.push({ request, resolve, reject });
    });
  };

  /** The model client's `sleep`: a delay that ends early (and stops the work) past the deadline. */
  sleep(milliseconds: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const at = this.options.now() + milliseconds;
      if (this.abortSignal.aborted || at > this.options.deadline) {
        this.stop('deadline');
        resolve();
        return;
      }
      this.timers.push({ at, resolve });
    });
  }

  stop(reason: StopReason): void {
    this.abortSignal.abort(reason);
  }

  /**
   * Start the work and drive it to completion; returns its value or throws its error.
   * `beforeEachRound` runs before every round trip and once at the end: where buffered writes go
   * out, so nothing a finished round produced is lost if the execution ends during the next one.
   */
  run<T>(start: () => PromiseLike<T>, step: string, { beforeEachRound }: { beforeEachRound?: () => void } = {}): T {
    const work = start();
    for (;;) {
      beforeEachRound?.();
      if ((work as unknown as { inspect(): { state: string } }).inspect().state !== 'pending') return settleNow(work, step);
      if (this.queue.length) {
        this.sendRound();
        continue;
      }
      if (this.timers.length) {
        this.wakeTimers();
        continue;
      }
      beforeEachRound?.();
      return settleNow(work, step);
    }
  }

  private sendRound(): void {
    if (!this.abortSignal.aborted) {
      if (this.options.shouldStop?.()) this.stop('stop');
      else if (this.options.now() >= this.options.deadline) this.stop('deadline');
    }
    if (this.abortSignal.aborted) {
      for (const pending of this.queue.splice(0)) pending.reject(this.stoppedError());
      return;
    }
    const batch = this.queue.splice(0, Math.max(1, this.options.maxBatchSize));
    const outcomes = this.options.transport.sendAll(batch.map((pending) => pending.request));
    this.requestsSent += batch.length;
    batch.forEach((pending, index) => {
      const outcome = outcomes[index];
      if (!outcome) pending.reject(new SragError({ code: 'LLM_REQUEST_FAILED', message: 'the request got no response' }));
      else if (TransportFailure.isInstance(outcome)) pending.reject(outcome);
      else pending.resolve(outcome);
    });
  }

  private wakeTimers(): void {
    this.timers.sort((left, right) => left.at - right.at);
    const earliest = this.timers[0]!.at;
    const wait = earliest - this.options.now();
    if (this.abortSignal.aborted || earliest > this.options.deadline) {
      this.stop('deadline');
      for (const timer of this.timers.splice(0)) timer.resolve();
      return;
    }
    if (wait > 0) this.options.block(wait);
    const now = this.options.now();
    const due = this.timers.filter((timer) => timer.at <= now);
    this.timers.splice(0, due.length);
    for (const timer of due) timer.resolve();
  }

  private stoppedError(): SragError {
    return this.abortSignal.reason === 'stop'
      ? new SragError({ code: 'CANCELLED', message: 'stopped from the sidebar' })
      : new SragError({ code: 'TIME_LIMIT', message: 'stopped before the time limit of this execution' });
  }
}

