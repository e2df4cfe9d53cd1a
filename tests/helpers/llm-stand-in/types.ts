/**
 * What a faulted chat request gets instead of a good answer. `endless_reply` is the good reply
 * with its first quote run on to 50 MB (a model repeating itself until the server cuts it off);
 * it is drawn only when asked for (`failNext`, `faultKinds`), not among the defaults.
 */
export type FaultKind = 'rate_limit' | 'server_error' | 'hang' | 'truncated_json' | 'malformed_json'
  | 'endless_reply';

export const allFaultKinds: readonly FaultKind[] = ['rate_limit', 'server_error', 'hang', 'truncated_json', 'malformed_json'];

/**
 * Slips a real model makes in extraction replies, which the stand-in makes on purpose when asked:
 * `retype-quotes` copies each quote with small changes (case, quotation marks, list markers and
 * markdown, line breaks, punctuation, an elided middle) and keeps the true value;
 * `misread-values` keeps the true quote and gives a value it does not say (a magnitude slip or an
 * off-by-one, a shifted day, a wrong name, a flipped boolean); `fabricate-quotes` keeps the true
 * value and cites a sentence that is not in the document.
 * `omit-property` leaves the property out of the reply (a real model's structured output without
 * strict mode, or a plain-text reply, does that; strict mode was asked for but not every endpoint
 * honours it), and gives it when re-asked; `omit-property-always` leaves it out of the re-ask too.
 * `decoy-values` answers a number with another number of the same kind that the document states
 * in another sentence, about something else ("a team of 7 engineers" for years of experience),
 * quoting that sentence, so that value and quote agree; `elide-over-value` keeps the true value and
 * elides part of it from its quote ("Current role: Software … at Northwind Traders."), the quote's
 * passages still in the document in order; `terse-quotes` keeps the true value and quotes only the
 * value as the document writes it ("USD 470.00", "11 yrs").
 */
export type ModelSlip = 'retype-quotes' | 'misread-values' | 'fabricate-quotes'
  | 'omit-property' | 'omit-property-always' | 'decoy-values' | 'elide-over-value' | 'terse-quotes';

/**
 * A synthesized function that misbehaves: `endless-loop` never returns, `memory-bomb` allocates
 * without end, `reach-host` reads `process.env` (which a sandbox does not have), `loop-on-marker`
 * is the gold template's function but loops on a document carrying `STAND-IN: CODE-LOOP`.
 * `stateful-counter` counts its calls (in its closure and in a global) and reads the template's
 * line for 8 calls — as many as a run checks it on — then the line of the template's attribute
 * before it (the model's line for `make`): a value that is in the document, under a true quote,
 * and wrong. `misread-unchecked` reads like the template except on documents carrying
 * `STAND-IN: MISREAD`, where it reads that other line: a variant the checked documents did not show.
 */
export type ExtractorFault = 'endless-loop' | 'memory-bomb' | 'reach-host' | 'loop-on-marker'
  | 'stateful-counter' | 'misread-unchecked';

/**
 * Slips a real model makes in a batch reply (several documents in one call), made on purpose in
 * every batch reply of two or more records when asked, with quotes or without (`--no-evidence`):
 * `drop-id` leaves out the last document's record, `extra-id` adds a record for an id that was not
 * sent (a copy of the first, renumbered), `swap-ids` gives the first two documents each other's
 * record, `shift-ids` gives each document the next one's record (the last gets the first's: an
 * off-by-one over the whole reply, every id still there once).
 */
export type BatchSlip = 'drop-id' | 'extra-id' | 'swap-ids' | 'shift-ids';

/** Which prompt template a chat request was rendered from; `unknown` gets a 400. */
export type RequestKind =
  | 'predict-schema-first'
  | 'refine-schema'
  | 'extract-record'
  | 'extract-record-batch'
  | 'synthesize-extractors'
  | 'generate-sql'
  | 'repair-sql'
  | 'answer'
  | 'answer-from-context'
  | 'answer-from-documents'
  | 'judge-answer-comparison'
  | 'judge-answer-recall-claims'
  | 'judge-claim-supported'
  | 'target-schema'
  | 'unknown';

export interface LlmStandInOptions {
  /**
   * Gold corpus directories, absolute or relative to the repository root,
   * e.g. `['examples/hotels', 'tests/llm-stand-in/fixture-corpus']`.
   */
  corpora: string[];
  /** Milliseconds added before every response, faults included. Default 0. */
  latencyMs?: number;
  /**
   * Keep each request's body in `requests` (default true). A benchmark of a million pages turns it
   * off: their prompts are more than this process's heap holds.
   */
  recordBodies?: boolean;
  /** 0..1: the fraction of chat requests answered with a random fault. Default 0. */
  faultRate?: number;
  /** The faults a random draw picks from, uniformly. Default: all kinds. */
  faultKinds?: FaultKind[];
  /** Seeds the fault draws, so a run with the same seed and request order faults the same requests. Default 1. */
  seed?: number;
  /**
   * Default true. When false, a request with `response_format.type === 'json_schema'` gets a 400,
   * as from an endpoint without structured outputs.
   */
  structuredOutputs?: boolean;
  /**
   * When true, the first generate-sql reply for each question is a query naming a column that does
   * not exist, so the caller's repair round runs. `reset()` forgets which questions were seen.
   */
  brokenSqlFirst?: boolean;
  /** Slips made in every extraction reply (see `ModelSlip`). Default none: a careful model. */
  slips?: ModelSlip[];
  /**
   * The properties the `slips` are made in, e.g. `['price_per_night']` for a reply whose other
   * values are right; empty (the default) for every property.
   */
  slipProperties?: string[];
  /**
   * Attributes whose synthesized extraction function is the gold template's `slip` (a plausible
   * mistake, e.g. a name read as two words), which disagrees with the model on some documents.
   */
  extractorSlips?: string[];
  /** Attributes whose synthesized function misbehaves on purpose, for the sandbox's tests (see `ExtractorFault`). */
  extractorFaults?: Record<string, ExtractorFault>;
  /** Slips made in every batch extraction reply of two or more records (see `BatchSlip`). Default none. */
  batchSlips?: BatchSlip[];
  /** Batch API: how many retrieves find a batch still `in_progress` before one completes it. Default 1. */
  batchPollsUntilDone?: number;
  /** Batch API: how many lines of each batch fail (expired or answered 500), from its first line. Default 0. */
  batchFailedLines?: number;
  /** Batch API: how many of the next answered lines carry a reply that is not JSON (counted down). Default 0. */
  batchMalformedLines?: number;
  /** Batch API: how long `POST /batches` takes before it creates the batch (a provider validating the file), in ms. Default 0. */
  batchCreateDelayMs?: number;
  /** Port to listen on; default 0 (a free port). */
  port?: number;
  /**
   * Answer as one provider's OpenAI-compatible endpoint does (see `Dialect`): its base path, the
   * requests it refuses and its words for them, its error and reply shapes. Fixed at start. Without
   * one, the stand-in's own lenient behaviour (no key needed, any model, any field).
   */
  dialect?: Dialect;
}

export interface RecordedRequest {
  kind: RequestKind;
  /** The model the request named (`srag-stand-in` when it named none). */
  model: string;
  /** The parsed JSON request body. */
  body: any;
  /** HTTP status sent; 0 while unanswered (a hang stays 0). */
  status: number;
  fault?: FaultKind;
  /** True for a line of a Batch API input file, answered when its batch completed. */
  viaBatch?: boolean;
  startedAt: number;
  /** When the response was sent, or when a hung request's socket closed; 0 until then. */
  finishedAt: number;
}

export interface LlmStandIn {
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:1234/v1`. */
  url: string;
  /** Every chat request in arrival order, faulted ones included. */
  requests: RecordedRequest[];
  /** Number of recorded requests per kind, e.g. `{ 'extract-record': 4, answer: 1 }`. */
  countByKind(): Record<string, number>;
  /** Forgets recorded requests (and which questions already got a broken SQL reply). */
  reset(): void;
  /** Changes options at runtime, e.g. `setOptions({ faultRate: 0 })`; `corpora` and `port` are fixed at start. */
  setOptions(partial: Partial<LlmStandInOptions>): void;
  /** The ids of the Batch API batches created so far, in order. */
  batchIds(): string[];
  /** How many `POST /batches` requests arrived so far (created or still on their way). */
  batchCreatesStarted(): number;
  /** Forces the next `count` (default 1) chat requests to get `kind`, whatever the random draw says. */
  failNext(kind: FaultKind, count?: number): void;
  /** Stops listening and destroys open sockets, hung ones included. */
  close(): Promise<void>;
}

/**
 * Providers the stand-in can answer as (see `dialects/`): OpenAI's chat models and its reasoning
 * models, Azure OpenAI's v1 API, Ollama, vLLM, llama.cpp server, LM Studio, and the
 * OpenAI-compatible endpoints of Gemini, Anthropic and OpenRouter.
 */
export type Dialect = 'openai' | 'openai-reasoning' | 'azure' | 'ollama' | 'vllm' | 'llama-cpp' | 'lm-studio' | 'gemini-openai' | 'anthropic-openai' | 'openrouter';

export const allDialects: readonly Dialect[] = ['openai', 'openai-reasoning', 'azure', 'ollama', 'vllm', 'llama-cpp', 'lm-studio', 'gemini-openai', 'anthropic-openai', 'openrouter'];
