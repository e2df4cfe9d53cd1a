import { malformedContent, type PlannedResponse } from './fault-response.ts';
import { errorBody } from './openai-wire.ts';

/** How the stand-in answers one chat body, as `/chat/completions` would (status and JSON body), without faults. */
export type AnswerChat = (body: unknown) => Promise<{ status: number; body: Record<string, unknown> }>;

export interface BatchBehaviour {
  /** Retrieves a batch answers `in_progress` before it completes. Default 1: the second retrieve finds it done. */
  batchPollsUntilDone: number;
  /**
   * How many lines of each batch fail, from its first line: alternately expired
   * (`batch_expired` in the error file) and answered 500 (in the error file too). Default 0.
   */
  batchFailedLines: number;
  /**
   * How many of the next answered lines (across batches) carry a reply that is not JSON, as a model
   * cut off midway sends; each one counts this down. Default 0.
   */
  batchMalformedLines: number;
  /** How long `POST /batches` takes before it creates the batch, in ms; the batch is made even when the client went away meanwhile. Default 0. */
  batchCreateDelayMs: number;
}

interface StoredBatch {
  id: string;
  inputFileId: string;
  polls: number;
  status: 'in_progress' | 'completed';
  outputFileId: string | null;
  errorFileId: string | null;
  counts: { total: number; completed: number; failed: number };
  createdAt: number;
}

/**
 * The Batch API of the stand-in: `POST /files` (multipart, purpose `batch`), `POST /batches`,
 * `GET /batches/{id}`, `GET /files/{id}/content`. A batch stays `in_progress` for
 * `batchPollsUntilDone` retrieves; the retrieve that completes it answers every line as
 * `/chat/completions` would and writes the output and error files.
 */
export function createBatchEndpoints(answer: AnswerChat, behaviour: () => BatchBehaviour) {
  const files = new Map<string, string>();
  const batches = new Map<string, StoredBatch>();
  let counter = 0;
  let createsStarted = 0;
  const nextId = (prefix: string) => `${prefix}-stand-in-${(counter += 1)}`;

  const complete = async (batch: StoredBatch) => {
    const lines = (files.get(batch.inputFileId) ?? '').split('\n').filter((line) => line.trim() !== '');
    const output: string[] = [];
    const errors: string[] = [];
    const { batchFailedLines } = behaviour();
    for (const [index, text] of lines.entries()) {
      const line = JSON.parse(text) as { custom_id: string; body: unknown };
      const id = `batch_req_${index + 1}`;
      if (index < batchFailedLines) {
        errors.push(JSON.stringify(index % 2 === 0
          ? { id, custom_id: line.custom_id, response: null, error: { code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' } }
          : { id, custom_id: line.custom_id, response: { status_code: 500, request_id: id, body: errorBody('The server had an error (simulated by the LLM stand-in).', 'server_error') }, error: null }));
        continue;
      }
      const reply = await answer(line.body);
      const current = behaviour();
      if (reply.status === 200 && current.batchMalformedLines > 0) {
        current.batchMalformedLines -= 1;
        (reply.body as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content = malformedContent;
      }
      const entry = JSON.stringify({ id, custom_id: line.custom_id, response: { status_code: reply.status, request_id: id, body: reply.body }, error: null });
      if (reply.status === 200) output.push(entry);
      else errors.push(entry);
    }
    batch.status = 'completed';
    batch.counts = { total: lines.length, completed: output.length, failed: errors.length };
    if (output.length) files.set((batch.outputFileId = nextId('file-output')), `${output.join('\n')}\n`);
    if (errors.length) files.set((batch.errorFileId = nextId('file-errors')), `${errors.join('\n')}\n`);
  };

  const batchBody = (batch: StoredBatch) => ({
    id: batch.id, object: 'batch', endpoint: '/v1/chat/completions', errors: null, input_file_id: batch.inputFileId,
    completion_window: '24h', status: batch.status, output_file_id: batch.outputFileId, error_file_id: batch.errorFileId,
    created_at: batch.createdAt, request_counts: batch.counts,
  });
  const notFound = (what: string): PlannedResponse => ({ status: 404, headers: {}, body: errorBody(`No such ${what}`, 'invalid_request_error', null, 'not_found') });
  const invalid = (message: string): PlannedResponse => ({ status: 400, headers: {}, body: errorBody(message, 'invalid_request_error') });

  return {
    /** Batches created so far, in order (for tests). */
    batchIds: () => [...batches.keys()],
    /** `POST /batches` requests received so far (for tests that interrupt one). */
    createsStarted: () => createsStarted,
    /** The response to a Batch API request, or undefined when the route is not one. */
    async handle(method: string, route: string, contentType: string, body: string): Promise<PlannedResponse | undefined> {
      if (method === 'POST' && route === '/files') {
        const form = readForm(contentType, body);
        if (form.purpose !== 'batch') return invalid('purpose must be "batch" (the stand-in keeps batch input files only)');
        if (form.file === undefined) return invalid('the form has no file');
        const id = nextId('file');
        files.set(id, form.file);
        return { status: 200, headers: {}, body: { id, object: 'file', bytes: Buffer.byteLength(form.file), purpose: 'batch', filename: form.filename ?? 'input.jsonl' } };
      }
      if (method === 'POST' && route === '/batches') {
        createsStarted += 1;
        const delay = behaviour().batchCreateDelayMs;
        if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
        const request = JSON.parse(body) as { input_file_id?: string; endpoint?: string; completion_window?: string };
        if (!request.input_file_id || !files.has(request.input_file_id)) return notFound('file');
        if (request.endpoint !== '/v1/chat/completions' || request.completion_window !== '24h') return invalid('endpoint must be /v1/chat/completions and completion_window 24h');
        const total = files.get(request.input_file_id)!.split('\n').filter((line) => line.trim() !== '').length;
        const batch: StoredBatch = {
          id: nextId('batch'), inputFileId: request.input_file_id, polls: 0, status: 'in_progress', outputFileId: null, errorFileId: null,
          counts: { total, completed: 0, failed: 0 }, createdAt: Math.floor(Date.now() / 1000),
        };
        batches.set(batch.id, batch);
        return { status: 200, headers: {}, body: batchBody(batch) };
      }
      const batchMatch = /^\/batches\/([^/]+)$/.exec(route);
      if (method === 'GET' && batchMatch) {
        const batch = batches.get(decodeURIComponent(batchMatch[1]!));
        if (!batch) return notFound('batch');
        if (batch.status === 'in_progress') {
          batch.polls += 1;
          if (batch.polls > behaviour().batchPollsUntilDone) await complete(batch);
        }
        return { status: 200, headers: {}, body: batchBody(batch) };
      }
      const fileMatch = /^\/files\/([^/]+)\/content$/.exec(route);
      if (method === 'GET' && fileMatch) {
        const content = files.get(decodeURIComponent(fileMatch[1]!));
        return content === undefined ? notFound('file') : { status: 200, headers: { 'content-type': 'application/octet-stream' }, body: content };
      }
      return undefined;
    },
  };
}

/** The fields of a multipart/form-data body whose parts are text. */
function readForm(contentType: string, body: string): { purpose?: string; file?: string; filename?: string } {
  const boundary = /boundary=("?)([^";]+)\1/.exec(contentType)?.[2];
  if (!boundary) return {};
  const form: { purpose?: string; file?: string; filename?: string } = {};
  for (const part of body.split(`--${boundary}`)) {
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const head = part.slice(0, split);
    const value = part.slice(split + 4).replace(/\r\n$/, '');
    const name = /name="([^"]+)"/.exec(head)?.[1];
    if (name === 'purpose') form.purpose = value;
    if (name === 'file') {
      form.file = value;
      form.filename = /filename="([^"]+)"/.exec(head)?.[1];
    }
  }
  return form;
}
