import { firstLine, LanguageModelError, SragError, type BatchApi, type BatchLineResult, type BatchRequest, type BatchStatus, type CancellationSignal } from '../core/index.ts';
import { chatCompletionRequest } from './chat-completion-request.ts';
import { defaultMaxReplyBytes } from './http-transport.ts';
import { readChatCompletion, type ChatCompletionBody } from './read-chat-completion.ts';
import type { OpenAiWire } from './openai-wire.ts';

/** Only the fields read from a batch object (`/v1/batches/{id}`). */
interface BatchBody {
  id?: string;
  status?: string;
  output_file_id?: string | null;
  error_file_id?: string | null;
  request_counts?: { total?: number; completed?: number; failed?: number };
  errors?: { data?: Array<{ message?: string; line?: number | null }> } | null;
}

/** Only the fields read from a line of an output or error file. */
interface OutputLine {
  custom_id?: string;
  response?: { status_code?: number; body?: unknown } | null;
  error?: { code?: string; message?: string } | null;
}

/** The statuses after which a batch answers nothing more. */
const finishedStatuses = new Set(['completed', 'expired', 'cancelled', 'failed']);
/** What the Batch API's chat endpoint is called in a request line and a batch. */
const chatEndpoint = '/v1/chat/completions';

/**
 * The Batch API over the one OpenAI-compatible wire: the requests as a JSON Lines file uploaded
 * to `files` (purpose `batch`), a batch over it (`batches`, endpoint `/v1/chat/completions`,
 * completion window 24h), its status by id, and its output and error files read back by
 * `files/{id}/content`. Each line is the body `OpenAiChatModel` would post, with what the endpoint
 * was found to refuse for the model left out (structured output as `json_schema` unless it was
 * refused: a batch cannot fall back per request, a line the endpoint refuses comes back failed and
 * goes the ordinary way, where the chat model learns what to leave out).
 */
export class OpenAiBatchApi implements BatchApi {
  /** OpenAI's limits: 50,000 requests and 200 MB per input file (a margin kept for the form). */
  readonly maxRequestsPerBatch = 50_000;
  readonly maxBytesPerBatch = 190_000_000;

  /** `maxReplyBytes`: the most of one line's reply read, as the chat model's transport reads of one reply (a file is bounded by the wire's transport). */
  constructor(private readonly wire: OpenAiWire, private readonly maxReplyBytes = defaultMaxReplyBytes) {
    const refusal = wire.endpoint.hints.noBatchApi;
    if (refusal) throw new SragError({ code: 'INPUT_INVALID', message: refusal });
  }

  async submit(requests: readonly BatchRequest[], signal?: CancellationSignal): Promise<string> {
    const lines = requests.map(({ customId, request }) => {
      const adaptation = this.wire.adaptations.for(request.model!);
      const mode = request.outputSchema ? adaptation.outputMode ?? 'json_schema' : 'none';
      return JSON.stringify({ custom_id: customId, method: 'POST', url: chatEndpoint, body: chatCompletionRequest(request.model!, request, mode, { settings: this.wire.requestSettings, adaptation }) });
    });
    const file = await this.wire.postForm('files', { fields: { purpose: 'batch' }, file: { field: 'file', name: 'srag-extraction.jsonl', content: `${lines.join('\n')}\n` } }, { signal }) as { id?: string };
    if (!file.id) throw this.wire.failures.unusableReply('the file upload returned no file id');
    // Not cancelled once the file is up: a create cut off may still make a batch that nothing records (billed, and asked again).
    const batch = await this.wire.postJson('batches', { input_file_id: file.id, endpoint: chatEndpoint, completion_window: '24h' }, { model: '' }).catch((error: unknown) => {
      throw withoutBatchApi(error, this.wire);
    }) as BatchBody;
    if (!batch.id) throw this.wire.failures.unusableReply('the new batch has no id');
    return batch.id;
  }

  async retrieve(id: string, signal?: CancellationSignal): Promise<BatchStatus> {
    const body = await this.batch(id, signal);
    return body ? readStatus(id, body) : { ...readStatus(id, {}), status: 'unknown', finished: true };
  }

  async results(id: string, signal?: CancellationSignal): Promise<BatchLineResult[]> {
    const batch = await this.batch(id, signal);
    if (!batch) return [];
    const results: BatchLineResult[] = [];
    for (const fileId of [batch.output_file_id, batch.error_file_id]) {
      if (!fileId) continue;
      const content = await this.wire.getText(`files/${encodeURIComponent(fileId)}/content`, { signal });
      for (const text of content.split('\n')) {
        if (text.trim() === '') continue;
        const result = readLine(text, this.wire);
        // Measured in UTF-16 units, at least one byte each: a line past the bound is past it in bytes too.
        if (result && 'response' in result && text.length > this.maxReplyBytes) {
          results.push({ customId: result.customId, error: `too long: the reply is longer than ${this.maxReplyBytes.toLocaleString('en-US')} bytes, the most read of one reply` });
        } else if (result) results.push(result);
      }
    }
    return results;
  }

  /** The batch object, or undefined when the endpoint does not know the batch (another base URL, a deleted batch): it will never answer. */
  private async batch(id: string, signal?: CancellationSignal): Promise<BatchBody | undefined> {
    try {
      return await this.wire.getJson(`batches/${encodeURIComponent(id)}`, { signal }) as BatchBody;
    } catch (error) {
      if (LanguageModelError.isInstance(error) && error.status === 404) return undefined;
      throw error;
    }
  }
}

function readStatus(id: string, body: BatchBody): BatchStatus {
  const status = body.status ?? 'unknown';
  return {
    id,
    status,
    finished: finishedStatuses.has(status),
    total: body.request_counts?.total ?? 0,
    completed: body.request_counts?.completed ?? 0,
    failed: body.request_counts?.failed ?? 0,
    errors: (body.errors?.data ?? []).map((error) => firstLine(`${error.line ? `line ${error.line}: ` : ''}${error.message ?? 'failed'}`, 200)),
  };
}

/** One output or error line; a line without an id cannot be matched to a request and is left out. */
function readLine(text: string, wire: OpenAiWire): BatchLineResult | undefined {
  let line: OutputLine;
  try {
    line = JSON.parse(text) as OutputLine;
  } catch {
    return undefined;
  }
  const customId = line.custom_id;
  if (!customId) return undefined;
  const status = line.response?.status_code;
  if (!line.error && status !== undefined && status >= 200 && status < 300 && typeof line.response?.body === 'object') {
    const body = line.response.body as ChatCompletionBody;
    try {
      return { customId, response: readChatCompletion(body, body.model ?? '', wire.failures) };
    } catch (error) {
      // A refusal, a filtered or cut reply: the line failed, and its request goes the ordinary way.
      return { customId, error: wire.failures.redact(firstLine(error instanceof Error ? error.message : String(error), 300)) };
    }
  }
  const message = line.error?.message ?? (line.response?.body as { error?: { message?: string } } | undefined)?.error?.message ?? 'no reply';
  const code = line.error?.code ?? (status !== undefined ? String(status) : 'failed');
  return { customId, error: wire.failures.redact(firstLine(`${code}: ${message}`, 300)) };
}

/** A 404 from creating a batch means the endpoint has no Batch API: say so, and the way out. */
function withoutBatchApi(error: unknown, wire: OpenAiWire): unknown {
  if (!LanguageModelError.isInstance(error) || error.status !== 404) return error;
  return new SragError({
    code: 'LLM_REQUEST_FAILED',
    message: `the endpoint ${wire.failures.shownUrl} has no Batch API (POST /batches answered 404)`,
    hint: 'run srag ingest without --batch-api to send the requests directly',
    cause: error,
  });
}
