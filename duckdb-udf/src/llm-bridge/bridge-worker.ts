import { parentPort, workerData } from 'node:worker_threads';
import { redactSecrets, SragError } from '../../../core/index.ts';
import type {
  BridgeReply, BridgeRequest, BridgeWorkerData, CallerReplyMessage, CallerRequest, CallerRequestMessage, SerializedError,
} from './bridge-protocol.ts';
import { secretSettings } from '../read-settings.ts';
import { controlSlots } from './control-buffer.ts';
import { LlmBridgeService } from './llm-bridge-service.ts';

/**
 * The bridge worker: takes requests from the thread that runs DuckDB's callbacks, runs them on
 * its own event loop, and posts each reply to the synchronous port, then wakes the waiting
 * callback through the control buffer (or answers on the ordinary port for asynchronous calls).
 */
const data = workerData as BridgeWorkerData;
const control = new Int32Array(data.control);

/** Wakes the thread blocked in `LlmBridge.callSync`: a reply or a caller request is on the synchronous port. */
function wakeCaller(): void {
  Atomics.store(control, controlSlots.reply, 1);
  Atomics.notify(control, controlSlots.reply);
}

const callerRequests = new Map<number, { resolve: () => void; reject: (error: unknown) => void }>();
let nextCallerRequestId = 1;
data.syncPort.on('message', (reply: CallerReplyMessage) => {
  const pending = callerRequests.get(reply.callerRequestId);
  callerRequests.delete(reply.callerRequestId);
  if (!pending) return;
  if (reply.ok) pending.resolve();
  else pending.reject(new SragError({ code: reply.error.code === 'INTERNAL' ? 'SQL_FAILED' : reply.error.code, message: reply.error.message, hint: reply.error.hint }));
});

/** Asks the thread that waits for the current synchronous call to do `request` (see `CallerRequest`). */
function askCaller(request: CallerRequest): Promise<void> {
  const callerRequestId = nextCallerRequestId++;
  return new Promise<void>((resolve, reject) => {
    callerRequests.set(callerRequestId, { resolve, reject });
    const message: CallerRequestMessage = { callerRequestId, request };
    data.syncPort.postMessage(message);
    wakeCaller();
  });
}

const service = new LlmBridgeService({ environment: data.environment, progress: data.progress, askCaller });

function serialize(error: unknown): SerializedError {
  const secrets = secretSettings(data.environment);
  if (SragError.isInstance(error)) return { code: error.code, message: redactSecrets(error.message, secrets), hint: error.hint };
  const message = error instanceof Error ? error.message.split('\n')[0] ?? '' : String(error);
  return { code: 'INTERNAL', message: redactSecrets(`unexpected error in the LLM bridge: ${message}`, secrets) };
}

parentPort!.on('message', async ({ id, reply, request }: { id: number; reply: 'sync' | 'async'; request: BridgeRequest }) => {
  let message: BridgeReply;
  try {
    const value = await service.handle(request);
    message = { id, ok: true, value, writes: service.takeWrites() };
  } catch (error) {
    message = { id, ok: false, error: serialize(error), writes: service.takeWrites() };
  }
  if (reply === 'async') return parentPort!.postMessage(message);
  data.syncPort.postMessage(message);
  wakeCaller();
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
  process.stderr.write(`srag: the LLM bridge stopped: ${redactSecrets(String(error), secretSettings(data.environment))}\n`);
  Atomics.store(control, controlSlots.failed, 1);
  Atomics.notify(control, controlSlots.reply);
});
