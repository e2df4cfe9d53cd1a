import { BatchDeferral } from '../batch-api/batch-deferral.ts';
import { approximateTokenCount } from '../documents/approximate-token-count.ts';
import { documentText } from '../documents/document-text.ts';
import { firstLine } from '../errors/first-line.ts';
import { SragError } from '../errors/srag-error.ts';
import { resolveBatchSize } from '../extraction/automatic-batch-size.ts';
import { estimateExtractionUsage } from '../extraction/estimate-extraction-usage.ts';
import { extractRecordBatch, type BatchDocument } from '../extraction/extract-record-batch.ts';
import type { SpendBudget } from '../cost/spend-budget.ts';
import { failsEveryDocument } from '../extraction/fails-every-document.ts';
import { LanguageModelError } from '../errors/language-model-error.ts';
import { contentHash } from '../hashing/content-hash.ts';
import type { ModelClient } from '../language-model/model-client.ts';
import { maySignalSetting } from '../language-model/setting-refusals.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import type { AttributeDefinition, RecordSchema } from '../schema/attribute-definition.ts';
import { attributeDefinitionHash } from '../schema/attribute-definition-hash.ts';
import type { CodeExtraction } from '../synthesis/code-extraction.ts';
import { extractWithCode } from '../synthesis/extract-with-code.ts';
import type { DocumentOutcome, OutcomeStatus } from './document-outcome.ts';
import type { DocumentSource } from './document-source.ts';
import { estimateExtractionCalls } from './estimate-extraction-calls.ts';
import type { ExtractionStore, IngestionLogEntry } from './extraction-store.ts';
import { addOutcome, emptyRunSummary, type RunSummary } from './run-summary.ts';

export interface RunProgress {
  completed: number;
  total: number;
  /** The document's label. */
  source: string;
  /** The document's identity (`DocumentSource.source`). */
  documentSource: string;
  outcome: OutcomeStatus;
}

export interface ExtractionRunOptions {
  client: ModelClient;
  prompts: PromptLibrary;
  schema: RecordSchema;
  /** In the order outcomes are returned. */
  documents: readonly DocumentSource[];
  store: ExtractionStore;
  /** Ask for a quote per value and check it (default true). */
  withEvidence?: boolean;
  /** Try documents again that failed in an earlier run with the same content. */
  retryFailed?: boolean;
  /** How this surface asks for that, for the message of a document left alone, e.g. "rerun with --retry-failed". */
  retryHint?: string;
  /** The extraction input budget; longer documents are split. */
  maxInputTokens?: number;
  /** The token counter, loaded on first need: only long documents and batches need it. */
  loadTokenCounter?: () => Promise<(text: string) => number>;
  model?: string;
  /** Groups of documents in progress at once (default 16); a group makes one model call at a time. */
  concurrency?: number;
  /**
   * The most documents per model call. `'auto'` (the default) lets short documents share a call:
   * up to `automaticBatchSize` of them, packed by the input budget (see `packBatches`); 1 sends
   * each document alone.
   */
  batchSize?: number | 'auto';
  /**
   * How many documents past the last one `next` returned may be started (default four rounds:
   * `4 · concurrency · batchSize`), so that a consumer that stops early (`LIMIT 5`) costs a few
   * calls, not all. `runExtraction` lifts it.
   */
  lookahead?: number;
  /**
   * A spending limit: each group's estimated cost is reserved before it is sent, and the run stops
   * (`runExtraction` then returns with `budgetReached`) before a group that would exceed it.
   */
  budget?: SpendBudget;
  /** Warn before a document that needs more model calls than this (default 20). */
  callWarningThreshold?: number;
  /**
   * Gives the host's event loop a turn before each document is read (Node: `setImmediate`). A
   * request handed to a socket is written only on such a turn; with documents read synchronously
   * (srag_extract's blocking reads), reading and preparing documents and sending requests are all
   * promise continuations, so the first requests of a scan at concurrency 64 left together after
   * the first 128 documents were prepared (+40–60 ms), and their replies came back in one burst.
   */
  yieldTurn?: () => Promise<void>;
  /** SHA-256 as hex; the default is core's portable one, a surface may pass a native one. */
  hashText?: (text: string) => string;
  onProgress?: (progress: RunProgress) => void;
  /** One line, before the work it warns about. */
  onWarning?: (warning: string) => void;
  /**
   * Fill only attributes missing from records the store already holds (the back-fill of
   * `srag ask --extend-schema`): a document that changed since its record was saved, cannot be
   * read or has no record is not extracted but reported (`stale`); its record keeps its values and
   * the missing attributes get NULL with the reason in their evidence — never a record mixing two
   * versions of a document.
   */
  backfill?: boolean;
  /** Checked before each group starts; requests in flight are cancelled by the client's own signal. */
  cancellation?: { readonly aborted: boolean };
  /** Synthesized extractors fill what they can of each document first; the model gets the rest (`srag ingest --synthesize`). */
  codeExtraction?: CodeExtraction;
}

/** Concurrency when the surface does not say. */
const defaultConcurrency = 16;
/**
 * Groups prepared at once. Enough to overlap reads that wait on a disk or a network; few enough
 * that the first requests do not wait for a whole lookahead of documents to be read first. With
 * `2 · concurrency` at once their steps took turns, so nothing was sent before all of them were
 * read: over 256 copies of a PDF at concurrency 64 the first request left after 0.9–1.1 s, against
 * 0.13–0.16 s with 8 (the whole run took the same time, 2.6–2.8 s, bound by parsing).
 */
const mostPreparing = 8;
const defaultCallWarningThreshold = 20;

/**
 * The one extraction run behind `srag ingest`, `srag_extract` (table and scalar) and the Sheets
 * batch. Documents are read, hashed and looked up in the store's ingestion log: unchanged ones
 * (and ones that failed before, unless retried) cost nothing; empty ones are logged without a
 * call; the rest are extracted in groups of `batchSize` (short documents of a group share a model
 * call, see `extractRecordBatch`), `concurrency` groups at a time, and each
 * record (with its evidence and log entry) is saved before its outcome is given out. A document
 * that fails gets its own `failed` outcome and log entry and never takes the run down; an error
 * that would fail every document (a refused key, an unreachable endpoint, a cancel, a setting the
 * endpoint refuses) or a store that cannot save stops the run, leaving unsaved documents unmarked.
 * A document that fails with a request error before the endpoint answered any request is held
 * back unmarked: when the next requests are refused alike it is a setting's failure, not the
 * document's (see `SettingRefusals`), and the run stops without marking it.
 *
 * Outcomes come back in document order through `next`, which a DuckDB scan pulls chunk by chunk;
 * `runExtraction` drains it.
 */
export function startExtractionRun(options: ExtractionRunOptions): ExtractionRun {
  return new ExtractionRun(options);
}

export class ExtractionRun {
  readonly summary: RunSummary;
  private readonly outcomes: Array<DocumentOutcome | undefined>;
  private readonly concurrency: number;
  private readonly batchSize: number;
  private readonly lookahead: number;
  private readonly hashText: (text: string) => string;
  /** The schema's attributes with their definition hashes, in schema order. */
  private readonly definitions: Array<{ attribute: AttributeDefinition; hash: string }>;
  private log: ReadonlyMap<string, IngestionLogEntry> | undefined;
  private nextToStart = 0;
  private emitted = 0;
  private completed = 0;
  /** Groups started and not finished: being read and prepared, waiting for a model slot, or calling. */
  private inFlight = 0;
  /** Groups being read, hashed and made into requests (at most `mostPreparing`). */
  private preparing = 0;
  /** Groups holding a model slot (at most `concurrency`). */
  private calling = 0;
  /** Groups prepared and waiting for a model slot, earliest document first. */
  private readonly waitingForSlot: Array<{ start: number; grant: (granted: boolean) => void }> = [];
  private saving = 0;
  /** Set once a save failed: the store is not asked to save anything more (the run stops). */
  private storeFailed = false;
  private failure: unknown;
  /**
   * Failed outcomes held back, unsaved, while the endpoint answered no request: a request error
   * then may be a setting's. Saved as failures once it answers one; left unmarked when the run
   * stops on a setting error.
   */
  private readonly held: Array<{ index: number; outcome: DocumentOutcome; error: unknown }> = [];
  private waiters: Array<() => void> = [];
  private tokenCounter: Promise<(text: string) => number> | undefined;

  constructor(private readonly options: ExtractionRunOptions) {
    this.outcomes = new Array(options.documents.length);
    this.summary = emptyRunSummary(options.documents.length);
    this.concurrency = Math.max(1, options.concurrency ?? defaultConcurrency);
    this.batchSize = resolveBatchSize(options.batchSize, options.schema, options.withEvidence ?? true);
    this.lookahead = Math.max(1, options.lookahead ?? 4 * this.concurrency * this.batchSize);
    this.hashText = options.hashText ?? contentHash;
    this.definitions = options.schema.attributes.map((attribute) => ({ attribute, hash: attributeDefinitionHash(attribute, this.hashText) }));
    options.store.logEntries(options.documents.map((document) => document.source)).then(
      (log) => {
        this.log = log;
        this.pump();
      },
      (error: unknown) => this.stop(storeFailure(error, 'read the ingestion log')),
    );
  }

  /**
   * The next outcomes in document order: at least one (waiting for it), at most `maximum`, all
   * that are ready. `done` once every outcome was returned. Rejects with the error that stopped
   * the run once the outcomes before it are returned.
   */
  async next(maximum: number): Promise<{ outcomes: DocumentOutcome[]; done: boolean }> {
    const total = this.outcomes.length;
    for (;;) {
      this.pump();
      if (this.emitted >= total) return { outcomes: [], done: true };
      const ready: DocumentOutcome[] = [];
      while (ready.length < maximum && this.emitted + ready.length < total) {
        const outcome = this.outcomes[this.emitted + ready.length];
        if (!outcome) break;
        ready.push(outcome);
      }
      if (ready.length > 0) {
        // Outcomes handed out are not needed again; a long run should not hold them all.
        this.outcomes.fill(undefined, this.emitted, this.emitted + ready.length);
        this.emitted += ready.length;
        this.pump();
        return { outcomes: ready, done: this.emitted >= total };
      }
      if (this.failure !== undefined) throw this.failure;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Stops starting documents; `next` rejects with `error` (the first one given) when it gets there. */
  stop(error: unknown): void {
    this.failure ??= error;
    this.grantSlots();
    this.wake();
  }

  /** Resolves once nothing is in flight any more: every started group and every save has finished or failed. */
  async whenSettled(): Promise<void> {
    while (this.inFlight > 0 || this.saving > 0) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  private pump(): void {
    if (this.log === undefined) return;
    if (this.options.cancellation?.aborted) this.stop(new SragError({ code: 'CANCELLED', message: 'cancelled' }));
    const total = this.outcomes.length;
    // Twice `concurrency` groups: while `concurrency` of them wait for the model, as many more are
    // read, hashed and made into prompts, so that a model slot that frees finds its next request
    // ready instead of waiting for a file read and the thread's turn to prepare it. A few at a time
    // are prepared (see `mostPreparing`), in document order, so that the first requests go out
    // while the rest are read rather than after all of them.
    while (
      this.failure === undefined && this.inFlight < 2 * this.concurrency && this.preparing < mostPreparing
      && this.nextToStart < total && this.nextToStart < this.emitted + this.lookahead
    ) {
      const start = this.nextToStart;
      const end = Math.min(total, start + this.batchSize);
      this.nextToStart = end;
      this.inFlight += 1;
      this.preparing += 1;
      this.runGroup(start, end)
        .catch((error: unknown) => this.stop(error))
        .finally(() => {
          this.inFlight -= 1;
          this.pump();
          this.wake();
        });
    }
    if (this.held.length > 0 && this.failure === undefined) this.decideHeld();
  }

  /**
   * Held failures are the documents' own once the endpoint answered a request. When nothing is in
   * flight and it answered none, every request of the run failed: alike (one document, or the
   * client's two agreeing refusals already stopped the run), the run stops on a setting error and
   * marks none; told apart by different errors, each is its document's.
   */
  private decideHeld(): void {
    const answered = this.options.client.endpointAnswered;
    if (!answered && this.inFlight > 0) return;
    const held = this.held.splice(0);
    const first = held[0]!.error as LanguageModelError;
    if (!answered && held.every(({ outcome }) => outcome.error === held[0]!.outcome.error)) {
      this.stop(new LanguageModelError({
        message: `the endpoint refused every request of the run, answering none: ${first.message}`,
        status: first.status, retryable: false, setting: true, reason: first.reason, cause: first,
        hint: first.hint ?? 'change the setting the endpoint names and run again: no document was marked failed',
      }));
      return;
    }
    for (const { index, outcome } of held) this.saveBehind(index, outcome);
  }

  private async runGroup(start: number, end: number): Promise<void> {
    let pending: Pending[];
    try {
      pending = await this.prepareGroup(start, end);
    } finally {
      this.preparing -= 1;
      this.pump();
    }
    if (pending.length === 0 || !(await this.takeModelSlot(start))) return;
    try {
      // Documents missing the same attributes share a request that carries only those attributes.
      const requests = new Map<string, Pending[]>();
      for (const item of pending) {
        const key = item.attributes ? item.attributes.map((attribute) => attribute.name).join('\u0000') : '';
        const sharing = requests.get(key);
        if (sharing) sharing.push(item);
        else requests.set(key, [item]);
      }
      for (const items of requests.values()) await this.extract(items);
    } finally {
      this.calling -= 1;
      this.grantSlots();
      this.wake();
    }
  }

  /**
   * Reads, hashes and looks up each document of a group: the ones that need no call are settled
   * (unchanged, empty, failed before, unreadable); the rest are returned, ready for a request.
   */
  private async prepareGroup(start: number, end: number): Promise<Pending[]> {
    const { options } = this;
    const log = this.log!;
    const pending: Pending[] = [];
    for (let index = start; index < end; index += 1) {
      const document = options.documents[index]!;
      const outcome = blankOutcome(document);
      let previous = log.get(document.source);
      let content: string;
      try {
        if (options.yieldTurn) await options.yieldTurn();
        content = await document.read();
      } catch (error) {
        if (failsEveryDocument(error)) throw error;
        if (options.backfill) {
          await this.reportStale(index, outcome, previous, `its document cannot be read any more (${describe(unreadableText(outcome.label, error)).error}); the row keeps its values`);
          continue;
        }
        await this.finish(index, Object.assign(outcome, { status: 'failed' as const }, describe(unreadableText(outcome.label, error))));
        continue;
      }
      outcome.contentHash = this.hashText(content);
      if (previous === undefined && !options.backfill && options.store.followMoved) {
        try {
          previous = await options.store.followMoved(document.source, outcome.contentHash);
        } catch (error) {
          throw storeFailure(error, `move the record of ${outcome.label} from the path it was moved from`);
        }
      }
      if (options.backfill && (previous?.status !== 'done' || previous.contentHash !== outcome.contentHash)) {
        const reason = previous?.status !== 'done'
          ? 'the document has no record in this table; run srag ingest on it'
          : 'its document changed since the row was extracted; the row keeps the values of the earlier version — run srag ingest on it to extract the new version';
        await this.reportStale(index, outcome, previous, reason);
        continue;
      }
      let attributes: AttributeDefinition[] | undefined;
      if (previous?.contentHash === outcome.contentHash) {
        if (previous.status === 'done') {
          const missing = this.missingDefinitions(previous);
          if (missing.length === 0) {
            this.settle(index, Object.assign(outcome, { status: 'unchanged' as const, values: previous.values ?? null }));
            continue;
          }
          attributes = missing.map(({ attribute }) => attribute);
        } else if (previous.status === 'empty') {
          this.settle(index, Object.assign(outcome, { status: 'empty' as const, error: previous.error }));
          continue;
        } else if (!options.retryFailed) {
          const retry = options.retryHint ? `; ${options.retryHint} to try again` : '';
          this.settle(index, Object.assign(outcome, { status: 'skipped-failed' as const, error: `${previous.error ?? 'failed'} (failed in an earlier run with the same content${retry})` }));
          continue;
        }
      }
      let text: string;
      try {
        text = documentText(document.source, content);
      } catch (error) {
        const reason = describe(unreadableText(outcome.label, error));
        if (options.backfill) await this.reportStale(index, outcome, previous, `its document cannot be read any more (${reason.error}); the row keeps its values`);
        else await this.finish(index, Object.assign(outcome, { status: 'failed' as const }, reason));
        continue;
      }
      if (text.trim() === '') {
        await this.finish(index, Object.assign(outcome, { status: 'empty' as const, error: 'the document is empty: no text to extract from (no model call made)' }));
        continue;
      }
      await this.warnIfCostly(outcome.label, text);
      pending.push({ index, outcome, text, attributes, previousHashes: attributes ? previous!.attributeHashes : undefined });
    }
    return pending;
  }

  /**
   * Waits for one of the `concurrency` model slots; the earliest group waiting gets the next one,
   * so that outcomes are ready in document order. False when the run stopped meanwhile: the
   * group's documents stay unsaved and unmarked.
   */
  private takeModelSlot(start: number): Promise<boolean> {
    return new Promise<boolean>((grant) => {
      // Groups are mostly prepared in document order: the place is nearly always the end.
      let at = this.waitingForSlot.length;
      while (at > 0 && this.waitingForSlot[at - 1]!.start > start) at -= 1;
      this.waitingForSlot.splice(at, 0, { start, grant });
      this.grantSlots();
    });
  }

  /**
   * Hands free model slots to the earliest waiting groups, each woken alone. Waking every waiting
   * group at each slot freed, for each to compare itself with the others, was a tenth of the
   * thread's time in a 512-document scan at concurrency 64.
   */
  private grantSlots(): void {
    if (this.failure !== undefined) {
      for (const waiting of this.waitingForSlot.splice(0)) waiting.grant(false);
      return;
    }
    while (this.calling < this.concurrency && this.waitingForSlot.length > 0) {
      this.calling += 1;
      this.waitingForSlot.shift()!.grant(true);
    }
  }

  /** Extracts documents that need the same attributes (all of the schema's, or the ones missing from their records), one batch. */
  private async extract(items: Pending[]): Promise<void> {
    const { options } = this;
    const attributes = items[0]!.attributes;
    const schema = attributes ? { title: options.schema.title, attributes } : options.schema;
    const countTokens = await this.countTokens();
    const extract = (part: RecordSchema, documents: BatchDocument[]) => extractRecordBatch({
      client: options.client,
      prompts: options.prompts,
      schema: part,
      documents,
      withEvidence: options.withEvidence,
      maxInputTokens: options.maxInputTokens,
      maxDocumentsPerCall: this.batchSize,
      countTokens,
      hashText: this.hashText,
      model: options.model,
    });
    const documents = items.map(({ outcome, text }) => ({ text, documentName: outcome.label }));
    let reservation: number | undefined;
    if (options.budget) {
      // What the model would be asked for all of the group (code extraction, when it applies, asks for less).
      reservation = options.budget.reserve(estimateExtractionUsage({
        prompts: options.prompts, schema, texts: documents.map(({ text }) => text), withEvidence: options.withEvidence ?? true,
        maxInputTokens: options.maxInputTokens, maxDocumentsPerCall: this.batchSize, countTokens,
      }));
      if (reservation === undefined) throw options.budget.stopError();
    }
    let extractions;
    try {
      extractions = options.codeExtraction
        ? await extractWithCode({ code: options.codeExtraction, schema, documents, extract })
        : await extract(schema, documents);
    } catch (error) {
      // A request went into a Batch API submission (see DeferringLanguageModel): nothing to save yet.
      if (!BatchDeferral.isInstance(error)) throw error;
      // The batch bills the group when it runs: its reservation stays spent for this run's budget.
      reservation = undefined;
      for (const { index, outcome } of items) this.settle(index, Object.assign(outcome, { status: 'deferred' as const }));
      return;
    } finally {
      if (reservation !== undefined) options.budget!.release(reservation);
    }
    // The group's slot is free as soon as the model is done: saving does not hold back the next call.
    extractions.forEach((extraction, position) => {
      const { index, outcome, previousHashes } = items[position]!;
      if ('error' in extraction) {
        // A back-fill that failed leaves the record and its log entry as they were: the next run tries the missing attributes again.
        if (attributes) return this.settle(index, Object.assign(outcome, { status: 'failed' as const }, describe(extraction.error)));
        const failed = Object.assign(outcome, { status: 'failed' as const }, describe(extraction.error));
        if (maySignalSetting(extraction.error) && !options.client.endpointAnswered) return void this.held.push({ index, outcome: failed, error: extraction.error });
        return this.saveBehind(index, failed);
      }
      const { values, evidence, issues, children, cached, usage } = extraction.record;
      const extractedHashes = this.hashesOf(schema.attributes);
      const kept = (previousHashes ?? []).filter((hash) => this.definitions.some((definition) => definition.hash === hash));
      this.saveBehind(index, Object.assign(outcome, {
        status: 'done' as const, values, evidence, issues, ...(children ? { children } : {}), cached, usage,
        attributeHashes: [...kept, ...extractedHashes.filter((hash) => !kept.includes(hash))],
        ...(attributes ? { onlyAttributes: attributes.map((attribute) => attribute.name) } : {}),
      }));
    });
  }

  /** The schema's attributes a `done` entry holds no value for under their current definition. */
  private missingDefinitions(entry: IngestionLogEntry): Array<{ attribute: AttributeDefinition; hash: string }> {
    if (entry.attributeHashes === undefined) return [];
    const held = new Set(entry.attributeHashes);
    return this.definitions.filter(({ hash }) => !held.has(hash));
  }

  private hashesOf(attributes: readonly AttributeDefinition[]): string[] {
    return attributes.map((attribute) => this.definitions.find((definition) => definition.attribute.name === attribute.name)!.hash);
  }

  /**
   * A back-fill's report of a document it does not extract: the attributes missing from its record
   * get NULL with `reason` in their evidence; its values and its log entry stay as they were.
   */
  private async reportStale(index: number, outcome: DocumentOutcome, previous: IngestionLogEntry | undefined, reason: string): Promise<void> {
    Object.assign(outcome, { status: 'stale' as const, error: reason, errorCode: null });
    const missing = previous?.status === 'done' ? this.missingDefinitions(previous) : [];
    if (missing.length > 0) {
      const attributes = missing.map(({ attribute }) => attribute.name);
      try {
        await this.options.store.saveRecord({
          source: outcome.source, contentHash: previous!.contentHash,
          values: Object.fromEntries(attributes.map((name) => [name, null])),
          evidence: attributes.map((attribute) => ({ attribute, value: null, raw: null, quote: null, status: 'missing' as const, reason })),
          issues: [], attributeHashes: [...previous!.attributeHashes ?? []], onlyAttributes: attributes,
        });
      } catch (error) {
        throw storeFailure(error, `save ${outcome.label}`);
      }
    }
    this.settle(index, outcome);
  }

  /** `finish` without waiting for it; what it throws stops the run. */
  private saveBehind(index: number, outcome: DocumentOutcome): void {
    this.saving += 1;
    this.finish(index, outcome)
      .catch((error: unknown) => this.stop(error))
      .finally(() => {
        this.saving -= 1;
        this.wake();
      });
  }

  /** Saves what the outcome means to the store, then gives it out; a failed save stops the run. */
  private async finish(index: number, outcome: DocumentOutcome): Promise<void> {
    const { store } = this.options;
    // A call that was already under way when a save failed leaves its document unsaved and unmarked, like the ones never started.
    if (this.storeFailed) return;
    try {
      if (outcome.status === 'done') {
        await store.saveRecord({
          source: outcome.source, contentHash: outcome.contentHash, values: outcome.values!, evidence: outcome.evidence, issues: outcome.issues,
          attributeHashes: outcome.attributeHashes ?? this.definitions.map(({ hash }) => hash),
          ...(outcome.onlyAttributes ? { onlyAttributes: outcome.onlyAttributes } : {}),
          ...(outcome.children ? { children: outcome.children } : {}),
        });
      } else if (outcome.status === 'failed' || outcome.status === 'empty') {
        await store.saveLogEntry({ source: outcome.source, contentHash: outcome.contentHash, status: outcome.status, error: outcome.error });
      }
    } catch (error) {
      this.storeFailed = true;
      throw storeFailure(error, `save ${outcome.label}`);
    }
    this.settle(index, outcome);
  }

  private settle(index: number, outcome: DocumentOutcome): void {
    this.outcomes[index] = outcome;
    this.completed += 1;
    addOutcome(this.summary, outcome);
    this.options.onProgress?.({ completed: this.completed, total: this.outcomes.length, source: outcome.label, documentSource: outcome.source, outcome: outcome.status });
    this.wake();
  }

  private async warnIfCostly(label: string, text: string): Promise<void> {
    const { options } = this;
    if (!options.onWarning) return;
    const threshold = options.callWarningThreshold ?? defaultCallWarningThreshold;
    const estimate = await estimateExtractionCalls({
      text, schema: options.schema, prompts: options.prompts, withEvidence: options.withEvidence ?? true,
      maxInputTokens: options.maxInputTokens, threshold, loadTokenCounter: () => this.countTokens(),
    });
    if (estimate) {
      options.onWarning(`${label} is long: it needs about ${estimate.calls} model calls (~${formatTokens(estimate.promptTokens)} prompt tokens), more than the ${threshold} a document is expected to take`);
    }
  }

  private countTokens(): Promise<(text: string) => number> {
    const load = this.options.loadTokenCounter;
    this.tokenCounter ??= load ? load() : Promise.resolve(approximateTokenCount);
    return this.tokenCounter;
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}

/** A document waiting for its extraction request; `attributes` when only those are missing from its record. */
interface Pending {
  index: number;
  outcome: DocumentOutcome;
  text: string;
  attributes: AttributeDefinition[] | undefined;
  previousHashes: readonly string[] | undefined;
}

function blankOutcome(document: DocumentSource): DocumentOutcome {
  return {
    source: document.source, label: document.label ?? document.source, contentHash: '', status: 'failed', values: null,
    evidence: [], issues: [], error: null, errorCode: null, cached: false, usage: { promptTokens: 0, completionTokens: 0 },
  };
}

/**
 * An error reading a document or making its text that is not one of srag's own (a reader's bug, a
 * shape no reader foresaw, `Maximum call stack size exceeded`): that document's DOCUMENT_UNREADABLE,
 * in one line that names it, so that it fails alone and the run goes on.
 */
function unreadableText(label: string, error: unknown): unknown {
  if (SragError.isInstance(error)) return error;
  const reason = firstLine(error instanceof Error ? `${error.name}: ${error.message}` : String(error), 300);
  return new SragError({
    code: 'DOCUMENT_UNREADABLE',
    message: `${label} could not be read as text (${reason})`,
    hint: 'open it to check it, or save it again in another format (.txt, .md, .html, .json, .pdf, .docx)',
    cause: error,
  });
}

function describe(error: unknown): Pick<DocumentOutcome, 'error' | 'errorCode'> {
  if (SragError.isInstance(error)) return { error: error.message, errorCode: error.code };
  return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error), errorCode: null };
}

/** A store's error as the run reports it: the store's own `STORE_FAILED` error, or one that says what failed. */
function storeFailure(error: unknown, what: string): SragError {
  if (SragError.isInstance(error) && (error.code === 'STORE_FAILED' || error.code === 'CANCELLED')) return error;
  const message = firstLine(error instanceof Error ? error.message : String(error));
  return new SragError({
    code: 'STORE_FAILED',
    message: `the store could not ${what}: ${message}`,
    hint: 'fix the cause (disk space, permissions) and run the same extraction again: what was saved stays, the rest resumes',
    cause: error,
  });
}

function formatTokens(tokens: number): string {
  if (tokens >= 1_000_000) return `${(tokens / 1_000_000).toFixed(1)} M`;
  if (tokens >= 1_000) return `${Math.round(tokens / 1_000)} k`;
  return String(tokens);
}

