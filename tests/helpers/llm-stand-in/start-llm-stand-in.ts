import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readChatRequest } from './chat-request.ts';
import { classifyRequest } from './classify-request.ts';
import { createRandom, drawFault } from './draw-fault.ts';
import { faultResponse, type PlannedResponse } from './fault-response.ts';
import { loadGoldCorpus } from './load-gold-corpus.ts';
import { loadPromptIdentities } from './load-prompt-identities.ts';
import { chatCompletionBody, errorBody, modelsBody } from './openai-wire.ts';
import { createBatchEndpoints } from './batch-endpoints.ts';
import { invalidRequestReply, type Reply } from './reply.ts';
import { respondToChat, type ResponderContext } from './respond-to-chat.ts';
import { createDialect } from './dialects/create-dialect.ts';
import { allFaultKinds, type FaultKind, type LlmStandIn, type LlmStandInOptions, type RecordedRequest } from './types.ts';

export interface StartLlmStandInOptions extends LlmStandInOptions {
  /** Receives one line per chat request (kind, status, fault, duration); `serve.ts` prints them to stderr. */
  log?: (line: string) => void;
}

type Settings = Required<Omit<LlmStandInOptions, 'corpora' | 'port' | 'dialect'>>;

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Checks the request shape before any responder runs; undefined when it is acceptable. */
function validationError(body: unknown, settings: Settings): Reply | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return invalidRequestReply('the request body is not a JSON object');
  }
  const fields = body as { stream?: unknown; response_format?: { type?: unknown } };
  if (fields.stream === true) {
    return invalidRequestReply('the LLM stand-in answers only non-streaming requests; stream: true is not supported', 'stream');
  }
  if (!settings.structuredOutputs && fields.response_format?.type === 'json_schema') {
    return invalidRequestReply('response_format json_schema is not supported by this server', 'response_format');
  }
  return undefined;
}

/**
 * Starts a local OpenAI-compatible chat-completions server that answers srag's prompts from gold
 * corpora, with optional latency and faults. For tests and the labelled offline demo only.
 */
export async function startLlmStandIn(options: StartLlmStandInOptions): Promise<LlmStandIn> {
  const identities = loadPromptIdentities();
  const dialect = options.dialect ? createDialect(options.dialect) : undefined;
  const context: ResponderContext = {
    corpora: options.corpora.map((directory) => loadGoldCorpus(directory)),
    brokenSql: { enabled: false, alreadyBroken: new Set() },
    slips: [],
    slipProperties: [],
    extractorSlips: [],
    extractorFaults: {},
    batchSlips: [],
  };
  const settings: Settings = {
    latencyMs: 0,
    recordBodies: true,
    faultRate: 0,
    faultKinds: [...allFaultKinds],
    seed: 1,
    structuredOutputs: true,
    brokenSqlFirst: false,
    slips: [],
    slipProperties: [],
    extractorSlips: [],
    extractorFaults: {},
    batchSlips: [],
    batchPollsUntilDone: 1,
    batchFailedLines: 0,
    batchMalformedLines: 0,
    batchCreateDelayMs: 0,
  };
  let random = createRandom(settings.seed);
  const applyOptions = (partial: Partial<LlmStandInOptions>) => {
    for (const [key, value] of Object.entries(partial)) {
      if (value !== undefined && key in settings) (settings as Record<string, unknown>)[key] = value;
    }
    if (partial.seed !== undefined) random = createRandom(partial.seed);
    context.brokenSql.enabled = settings.brokenSqlFirst;
    context.slips = settings.slips;
    context.slipProperties = settings.slipProperties;
    context.extractorSlips = settings.extractorSlips;
    context.extractorFaults = settings.extractorFaults;
    context.batchSlips = settings.batchSlips;
  };
  applyOptions(options);

  const requests: RecordedRequest[] = [];
  /**
   * First messages (the instructions) already answered: a request that repeats one reports it as
   * cached prompt tokens. Kinder than OpenAI, which caches only prompts of 1,024 tokens or more, in
   * steps of 128, and forgets after minutes of disuse.
   */
  const seenPrefixes = new Set<string>();
  const forcedFaults: FaultKind[] = [];
  const pendingTimers = new Set<NodeJS.Timeout>();
  /** Finishers of hung requests, run by their socket's close or by close(), whichever comes first. */
  const hungRequests = new Set<() => void>();

  /** Writes `planned` after the configured latency; returns whether it was written. */
  const send = (response: http.ServerResponse, planned: PlannedResponse, onWritten?: (written: boolean) => void) => {
    const write = () => {
      const writable = !response.destroyed && !response.writableEnded;
      if (writable) {
        response.writeHead(planned.status, { 'content-type': 'application/json', ...planned.headers });
        response.end(typeof planned.body === 'string' ? planned.body : JSON.stringify(planned.body));
      }
      onWritten?.(writable);
    };
    if (settings.latencyMs <= 0) return write();
    const timer = setTimeout(() => {
      pendingTimers.delete(timer);
      write();
    }, settings.latencyMs);
    pendingTimers.add(timer);
  };

  const handleChat = async (incoming: http.IncomingMessage, response: http.ServerResponse) => {
    const startedAt = Date.now();
    const text = await readBody(incoming);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    const request = readChatRequest(body);
    const kind = typeof body === 'object' && body !== null ? classifyRequest(request, identities) : 'unknown';
    const recorded: RecordedRequest = { kind, model: request.model, body: settings.recordBodies ? body : undefined, status: 0, startedAt, finishedAt: 0 };
    requests.push(recorded);
    // Draw for every request so the sequence of draws depends only on arrival order.
    const drawn = drawFault(random, settings.faultRate, settings.faultKinds);
    const dialectRequest = dialect && typeof body === 'object' && body !== null && !Array.isArray(body)
      ? { headers: incoming.headers, body: body as Record<string, unknown>, chat: request } : undefined;
    const refusal = dialectRequest ? dialect!.refuse(dialectRequest) : undefined;

    let reply: Reply;
    try {
      reply = refusal ? { type: 'content', content: '' } : validationError(body, settings) ?? (await respondToChat(kind, dialect ? dialect.asAnswered(request) : request, context));
    } catch (error) {
      reply = { type: 'error', status: 500, message: `LLM stand-in bug: ${String(error)}`, errorType: 'server_error', param: null };
    }
    const fault = refusal ? undefined : forcedFaults.shift() ?? drawn ?? (reply.type === 'content' ? reply.forcedFault : undefined);
    const content = reply.type === 'content' ? reply.content : JSON.stringify(errorBody(reply.message, reply.errorType));

    let planned: PlannedResponse | undefined;
    if (refusal) {
      planned = refusal;
    } else if (fault) {
      recorded.fault = fault;
      planned = faultResponse(fault, request, content);
    } else if (reply.type === 'error') {
      const shaped = dialect ? dialect.errorBody(reply.status, reply.message, reply.errorType, reply.param) : errorBody(reply.message, reply.errorType, reply.param);
      planned = { status: reply.status, headers: {}, body: Array.isArray(shaped) ? JSON.stringify(shaped) : shaped as Record<string, unknown> };
    } else {
      const prefix = request.messages[0]?.content ?? '';
      const completion = chatCompletionBody(request, reply.content, seenPrefixes.has(prefix) ? prefix.length : 0);
      planned = dialectRequest ? dialect!.reply(completion, dialectRequest, reply.content) : { status: 200, headers: {}, body: completion };
      seenPrefixes.add(prefix);
    }

    const finish = () => {
      recorded.finishedAt = Date.now();
      options.log?.(
        `${kind} ${recorded.status || 'no response'}${fault ? ` fault=${fault}` : ''} ${recorded.finishedAt - startedAt}ms`,
      );
    };
    if (!planned) {
      // hang: keep the socket open until the client gives up or close() destroys it.
      const finishHung = () => {
        if (!hungRequests.delete(finishHung)) return;
        finish();
      };
      hungRequests.add(finishHung);
      response.on('close', finishHung);
      return;
    }
    send(response, planned, (written) => {
      if (written) recorded.status = planned.status;
      if (written && !fault && reply.type === 'content') reply.onDelivered?.();
      finish();
    });
  };

  /** A Batch API line, answered as `/chat/completions` would answer it (no faults: those are the batch's failed lines). */
  const answerBatchLine = async (body: unknown) => {
    const request = readChatRequest(body);
    const kind = typeof body === 'object' && body !== null ? classifyRequest(request, identities) : 'unknown';
    const recorded: RecordedRequest = { kind, model: request.model, body, status: 0, startedAt: Date.now(), finishedAt: 0, viaBatch: true };
    requests.push(recorded);
    let reply: Reply;
    try {
      reply = validationError(body, settings) ?? (await respondToChat(kind, request, context));
    } catch (error) {
      reply = { type: 'error', status: 500, message: `LLM stand-in bug: ${String(error)}`, errorType: 'server_error', param: null };
    }
    recorded.status = reply.type === 'content' ? 200 : reply.status;
    recorded.finishedAt = Date.now();
    options.log?.(`${kind} ${recorded.status} (batch line)`);
    if (reply.type === 'content') {
      reply.onDelivered?.();
      return { status: 200, body: chatCompletionBody(request, reply.content) };
    }
    return { status: reply.status, body: errorBody(reply.message, reply.errorType, reply.param) };
  };
  const batchEndpoints = createBatchEndpoints(answerBatchLine, () => settings);

  const handleBatchRoute = async (incoming: http.IncomingMessage, response: http.ServerResponse, route: string) => {
    const body = await readBody(incoming);
    const planned = await batchEndpoints.handle(incoming.method ?? 'GET', route, String(incoming.headers['content-type'] ?? ''), body);
    send(response, planned ?? {
      status: 404, headers: {}, body: errorBody(`the LLM stand-in has no route ${incoming.method} /v1${route}`, 'invalid_request_error', null, 'not_found'),
    });
  };

  const server = http.createServer((incoming, response) => {
    const url = new URL(incoming.url ?? '/', 'http://stand-in');
    const basePath = dialect?.basePath ?? '/v1';
    const route = (url.pathname.startsWith(`${basePath}/`) ? url.pathname.slice(basePath.length) : url.pathname).replace(/\/+$/, '');
    if (incoming.method === 'POST' && route === '/chat/completions') {
      handleChat(incoming, response).catch((error: unknown) => {
        if (!response.headersSent) send(response, { status: 500, headers: {}, body: errorBody(`LLM stand-in bug: ${String(error)}`, 'server_error') });
      });
      return;
    }
    if (route === '/files' || route.startsWith('/files/') || route === '/batches' || route.startsWith('/batches/')) {
      handleBatchRoute(incoming, response, route).catch((error: unknown) => {
        if (!response.headersSent) send(response, { status: 500, headers: {}, body: errorBody(`LLM stand-in bug: ${String(error)}`, 'server_error') });
      });
      return;
    }
    incoming.resume();
    if (incoming.method === 'GET' && route === '/models') {
      send(response, { status: 200, headers: {}, body: modelsBody() });
      return;
    }
    send(response, {
      status: 404,
      headers: {},
      body: errorBody(`the LLM stand-in has no route ${incoming.method} ${url.pathname}`, 'invalid_request_error', null, 'not_found'),
    });
  });
  // Shorter than clients' keep-alive would be risky; 5 s matches Node's default and undici's hint handling.
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}${dialect?.basePath ?? '/v1'}`,
    requests,
    countByKind() {
      const counts: Record<string, number> = {};
      for (const request of requests) counts[request.kind] = (counts[request.kind] ?? 0) + 1;
      return counts;
    },
    reset() {
      requests.length = 0;
      seenPrefixes.clear();
      context.brokenSql.alreadyBroken.clear();
    },
    setOptions(partial) {
      applyOptions(partial);
    },
    batchIds: () => batchEndpoints.batchIds(),
    batchCreatesStarted: () => batchEndpoints.createsStarted(),
    failNext(kind, count = 1) {
      for (let index = 0; index < count; index += 1) forcedFaults.push(kind);
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const timer of pendingTimers) clearTimeout(timer);
        pendingTimers.clear();
        for (const finishHung of [...hungRequests]) finishHung();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
