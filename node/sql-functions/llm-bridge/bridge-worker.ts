import { parentPort, workerData } from 'node:worker_threads';
import { firstLine, redactSecrets, SragError } from '../../../core/index.ts';
import { secretSettings } from '../../runtime/read-settings.ts';
import type { BridgeMessage, BridgeRequest, BridgeWorkerData, CallerReply, CallerRequest, JournalAck, SerializedError } from './bridge-protocol.ts';
import { controlSlots } from './control-buffer.ts';
import { JournalChannel } from './journal-channel.ts';
import { LlmBridgeService } from './llm-bridge-service.ts';

/**
 * The bridge worker: takes requests from the thread that runs DuckDB's callbacks, runs them on
 * its own event loop, and posts each reply — each store write, each caller request — to the
 * synchronous port, then wakes that thread through the control buffer, in case it is blocked waiting.
 */
const data = workerData as BridgeWorkerData;
const control = new Int32Array(data.control);
const secrets = secretSettings(data.environment);
const post = (message: BridgeMessage) => {
  data.syncPort.postMessage(message);
  Atomics.store(control, controlSlots.reply, 1);
  Atomics.notify(control, controlSlots.reply);
};
const journal = new JournalChannel(post);

const callerRequests = new Map<number, { resolve: () => void; reject: (error: unknown) => void }>();
let nextCallerRequestId = 1;

/** Asks the thread that waits for the current synchronous call to do `request` (see `CallerRequest`). */
function askCaller(request: CallerRequest): Promise<void> {
  const id = nextCallerRequestId++;
  return new Promise<void>((resolve, reject) => {
    callerRequests.set(id, { resolve, reject });
    post({ type: 'caller-request', id, request });
  });
}

function settleCallerRequest(reply: CallerReply): void {
  const pending = callerRequests.get(reply.id);
  callerRequests.delete(reply.id);
  if (!pending) return;
  if (!reply.error) return pending.resolve();
  pending.reject(new SragError({ code: reply.error.code === 'INTERNAL' ? 'SQL_FAILED' : reply.error.code, message: reply.error.message, hint: reply.error.hint }));
}

const service = new LlmBridgeService({ environment: data.environment, progress: data.progress, journal, askCaller, documentsPerScanRun: data.documentsPerScanRun });

function serialize(error: unknown): SerializedError {
  if (SragError.isInstance(error)) return { code: error.code, message: redactSecrets(error.message, secrets), hint: error.hint, ...(error.fix ? { fix: error.fix } : {}) };
  const message = error instanceof Error ? firstLine(error.message) : String(error);
  return { code: 'INTERNAL', message: redactSecrets(`unexpected error in the LLM bridge: ${message}`, secrets) };
}

parentPort!.on('message', async (message: { type: 'request'; id: number; request: BridgeRequest } | JournalAck | CallerReply) => {
  if (message.type === 'journal-ack') return journal.acknowledge(message);
  if (message.type === 'caller-reply') return settleCallerRequest(message);
  const { id, request } = message;
  try {
    post({ type: 'reply', id, ok: true, value: await service.handle(request) });
  } catch (error) {
    post({ type: 'reply', id, ok: false, error: serialize(error) });
  }
});

/** `Atomics.waitAsync` (Node 16+); the project's TypeScript lib (ES2022) does not declare it yet. */
const waitAsync = (Atomics as unknown as {
  waitAsync(array: Int32Array, index: number, value: number): { async: false; value: string } | { async: true; value: Promise<string> };
}).waitAsync;

// Ctrl-C reaches this worker as a change of the cancel counter, not as a message: the thread
// that would forward a message may be the one blocked in a DuckDB callback.
void (async () => {
  let seen = Atomics.load(control, controlSlots.cancel);
  for (;;) {
    const waiting = waitAsync(control, controlSlots.cancel, seen);
    if (waiting.async) await waiting.value;
    const now = Atomics.load(control, controlSlots.cancel);
    if (now !== seen) {
      seen = now;
      service.cancel();
    }
  }
})();

process.on('uncaughtException', (error) => {
  process.stderr.write(`srag: the LLM bridge stopped: ${redactSecrets(String(error), secrets)}\n`);
  Atomics.store(control, controlSlots.failed, 1);
  Atomics.notify(control, controlSlots.reply);
});
