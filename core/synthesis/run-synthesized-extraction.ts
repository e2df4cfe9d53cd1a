import { documentText } from '../documents/document-text.ts';
import { failsEveryDocument } from '../extraction/fails-every-document.ts';
import type { AttributeEvidence } from '../extraction/record-issue.ts';
import { contentHash } from '../hashing/content-hash.ts';
import type { DocumentOutcome } from '../extraction-run/document-outcome.ts';
import type { DocumentSource } from '../extraction-run/document-source.ts';
import { runExtraction } from '../extraction-run/run-extraction.ts';
import type { RunSummary } from '../extraction-run/run-summary.ts';
import type { ExtractionRunOptions } from '../extraction-run/start-extraction-run.ts';
import type { CodeSandbox } from '../ports/code-sandbox.ts';
import type { TokenUsage } from '../ports/language-model.ts';
import { attributeDefinitionHash } from '../schema/attribute-definition-hash.ts';
import type { CheckDocument } from './check-extractors.ts';
import { ExtractorRecheck } from './extractor-recheck.ts';
import type { ExtractorStore } from './extractor-store.ts';
import { mergeRunSummaries } from './merge-run-summaries.ts';
import { synthesizeExtractors, type SynthesisSample } from './synthesize-extractors.ts';
import { attributeDefinitionKey, type SynthesizedExtractor } from './synthesized-extractor.ts';

export interface SynthesisOptions {
  sandbox: CodeSandbox;
  extractorStore: ExtractorStore;
  /** Documents shown to the model to write the functions from (default 3). */
  samples?: number;
  /** Further documents the functions are checked on, never shown to the model (default 5). */
  heldOut?: number;
  /** Told when an accepted extractor failed on a document; the model extracts that attribute there. */
  onFallback?: (fallback: { document: string; attribute: string; reason: string }) => void;
  /** About one document in this many that code reads is read by the model too, and compared (default 50; see `ExtractorRecheck`). */
  recheckEvery?: number;
}

export interface SynthesisReport {
  /**
   * `synthesized`: written and checked in this run; `reused`: an earlier run's, from the store;
   * `skipped`: not tried (see `note`), every attribute went to the model.
   */
  mode: 'synthesized' | 'reused' | 'skipped';
  note: string | null;
  extractors: SynthesizedExtractor[];
  /** Documents the functions were checked on. */
  checkedDocuments: number;
  /** Of this run's new records: per attribute, how many values code read. */
  valuesFromCode: Record<string, number>;
  /** The synthesis call's tokens (they are in the client's totals too). */
  usage: TokenUsage;
  /** Documents code read that the model read as well during the run, to check the extractors (see `ExtractorRecheck`). */
  recheckedDocuments: number;
  /** Records whose values from an extractor the re-check rejected the model read again (`extractors` says why). */
  readAgain: number;
}

const defaultSamples = 3;
const defaultHeldOut = 5;

/**
 * `srag ingest --synthesize`: extraction for a corpus whose documents follow a template, with
 * synthesized extractors (Evaporate-Code+). A few documents spread over the corpus are extracted
 * by the model as usual; the model then writes a JavaScript function per attribute from some of
 * them, and each function is checked on all of them, the others held out. Accepted functions read
 * their attributes from every other document in the code sandbox; the model is asked only for the
 * attributes they cannot fill (a request that carries only those). Extractors are kept in the
 * store: a later run reuses them while the schema's attributes are the ones they were written for
 * (a grown schema or a changed description has them written anew). When there are too few documents to extract for it to pay, the
 * run is an ordinary one.
 */
export async function runSynthesizedExtraction(options: Omit<ExtractionRunOptions, 'lookahead' | 'codeExtraction'> & { synthesis: SynthesisOptions }): Promise<{ summary: RunSummary; synthesis: SynthesisReport }> {
  const { synthesis, documents } = options;
  const sampleCount = synthesis.samples ?? defaultSamples;
  const heldOutCount = synthesis.heldOut ?? defaultHeldOut;
  const report: SynthesisReport = {
    mode: 'skipped', note: null, extractors: [], checkedDocuments: 0, valuesFromCode: {}, usage: { promptTokens: 0, completionTokens: 0 }, recheckedDocuments: 0, readAgain: 0,
  };
  const runRest = async (rest: readonly DocumentSource[], accepted: readonly SynthesizedExtractor[], offset: number) => {
    const recheck = new ExtractorRecheck(synthesis.recheckEvery);
    const readByCode: ReadByCode[] = [];
    try {
      const summary = await runExtraction({
        ...options,
        documents: rest,
        onProgress: options.onProgress && ((progress) => options.onProgress!({ ...progress, completed: progress.completed + offset, total: documents.length })),
        onOutcome: (outcome) => {
          const attributes = attributesReadByCode(outcome);
          for (const attribute of attributes) report.valuesFromCode[attribute] = (report.valuesFromCode[attribute] ?? 0) + 1;
          if (attributes.length > 0) readByCode.push({ source: outcome.source, contentHash: outcome.contentHash, attributeHashes: outcome.attributeHashes ?? [], attributes });
        },
        ...(accepted.length ? { codeExtraction: { sandbox: synthesis.sandbox, extractors: accepted, onFallback: synthesis.onFallback, recheck } } : {}),
      });
      if (recheck.rejected.size > 0) report.readAgain = await readAgain(options, recheck.rejected, readByCode.filter((entry) => entry.attributes.some((attribute) => recheck.rejected.has(attribute))), report);
      return summary;
    } finally {
      report.recheckedDocuments += recheck.documents;
      if (recheck.rejected.size > 0) {
        for (const extractor of report.extractors) {
          const reason = recheck.rejected.get(extractor.attribute);
          if (reason !== undefined) Object.assign(extractor, { status: 'rejected', reason, quoteBoundaries: [] });
        }
        // Kept as rejected, also when the run stopped: a later run does not use them again.
        await synthesis.extractorStore.save(report.extractors);
      }
    }
  };

  // Kept extractors serve while the schema is the one they were written for; otherwise they are written anew.
  const stored = await synthesis.extractorStore.load();
  const current = new Set(options.schema.attributes.map(attributeDefinitionKey));
  if (stored.length === options.schema.attributes.length && stored.every((extractor) => current.has(extractor.definition))) {
    const order = options.schema.attributes.map((attribute) => attribute.name);
    const inSchemaOrder = [...stored].sort((left, right) => order.indexOf(left.attribute) - order.indexOf(right.attribute));
    Object.assign(report, { mode: 'reused', extractors: inSchemaOrder, checkedDocuments: Math.max(...stored.map((extractor) => extractor.checkedDocuments)) });
    return { summary: await runRest(documents, accepted(stored), 0), synthesis: report };
  }

  // The check documents are chosen among those this run extracts anyway, spread over the corpus.
  const log = await options.store.logEntries(documents.map((document) => document.source));
  const toExtract = documents.filter((document) => log.get(document.source)?.status !== 'done');
  const wanted = sampleCount + heldOutCount;
  if (toExtract.length <= wanted) {
    report.note = `${toExtract.length} ${toExtract.length === 1 ? 'document needs' : 'documents need'} extracting; synthesized extractors pay off from ${wanted + 1} on (${wanted} are extracted by the model to write and check them)`;
    return { summary: await runRest(documents, [], 0), synthesis: report };
  }
  const chosen = spread(toExtract.length, wanted).map((index) => toExtract[index]!);
  const outcomes: DocumentOutcome[] = [];
  const checked = await runExtraction({
    ...options,
    documents: chosen,
    onProgress: options.onProgress && ((progress) => options.onProgress!({ ...progress, total: documents.length })),
    onOutcome: (outcome) => outcomes.push(outcome),
  });
  const chosenSources = new Set(chosen.map((document) => document.source));
  const rest = documents.filter((document) => !chosenSources.has(document.source));

  const extracted: Array<CheckDocument & { evidence: DocumentOutcome['evidence'] }> = [];
  const hashText = options.hashText ?? contentHash;
  for (const outcome of outcomes) {
    if (outcome.status !== 'done' || !outcome.values) continue;
    const document = chosen.find((candidate) => candidate.source === outcome.source)!;
    let content: string;
    try {
      content = await document.read();
    } catch {
      continue;
    }
    // A document that changed since it was extracted is no measure of the functions.
    if (hashText(content) !== outcome.contentHash) continue;
    extracted.push({ label: outcome.label, text: documentText(document.source, content), values: outcome.values, evidence: outcome.evidence });
  }
  if (extracted.length < sampleCount + 2) {
    report.note = `only ${extracted.length} of the ${wanted} documents chosen to write and check extractors were extracted now; every attribute went to the model`;
    return { summary: mergeRunSummaries(checked, await runRest(rest, [], chosen.length)), synthesis: report };
  }
  // Samples alternate with held-out documents, so both are spread over the corpus.
  const samples: SynthesisSample[] = extracted.filter((_, index) => index % 2 === 0).slice(0, sampleCount);
  const heldOut = extracted.filter((entry) => !samples.includes(entry));
  let written: Awaited<ReturnType<typeof synthesizeExtractors>> | undefined;
  try {
    written = await synthesizeExtractors({
      client: options.client, prompts: options.prompts, schema: options.schema, model: options.model, sandbox: synthesis.sandbox, samples, heldOut,
    });
  } catch (error) {
    if (failsEveryDocument(error)) throw error;
    report.note = `no extractors: ${(error as Error).message.split('\n')[0]}; every attribute went to the model`;
  }
  if (written) {
    Object.assign(report, { mode: 'synthesized', extractors: written.extractors, checkedDocuments: extracted.length, usage: written.usage });
    await synthesis.extractorStore.save(written.extractors);
  }
  return { summary: mergeRunSummaries(checked, await runRest(rest, accepted(report.extractors), chosen.length)), synthesis: report };
}

/** A record this run saved with values code read: what taking those values back needs. */
interface ReadByCode {
  source: string;
  contentHash: string;
  attributeHashes: readonly string[];
  /** The attributes whose value code read. */
  attributes: string[];
}

function attributesReadByCode(outcome: DocumentOutcome): string[] {
  if (outcome.status !== 'done') return [];
  return outcome.evidence.filter((evidence) => evidence.origin === 'code').map((evidence) => evidence.attribute);
}

/** How many records are taken back at once: their saves are grouped by the store. */
const retractionGroup = 256;

/**
 * After extractors were rejected during a run: the values they read in it are taken back — NULL,
 * with the reason in their evidence, and their attributes no longer counted as extracted in the
 * ingestion log — then an extraction over those documents has the model read just those
 * attributes (column-level incremental extraction). A document the model then fails keeps the
 * NULL and its reason, and the next run tries again; none keeps code's value. Returns how many
 * records the model read again.
 */
async function readAgain(
  options: Omit<ExtractionRunOptions, 'lookahead' | 'codeExtraction'>,
  rejected: ReadonlyMap<string, string>,
  records: readonly ReadByCode[],
  report: SynthesisReport,
): Promise<number> {
  const hashText = options.hashText ?? contentHash;
  const definitionHash = new Map(options.schema.attributes.map((attribute) => [attribute.name, attributeDefinitionHash(attribute, hashText)]));
  for (let start = 0; start < records.length; start += retractionGroup) {
    await Promise.all(records.slice(start, start + retractionGroup).map((record) => {
      const attributes = record.attributes.filter((attribute) => rejected.has(attribute));
      const dropped = new Set(attributes.map((attribute) => definitionHash.get(attribute)));
      for (const attribute of attributes) report.valuesFromCode[attribute] = (report.valuesFromCode[attribute] ?? 1) - 1;
      return options.store.saveRecord({
        source: record.source, contentHash: record.contentHash,
        values: Object.fromEntries(attributes.map((attribute) => [attribute, null])),
        evidence: attributes.map((attribute): AttributeEvidence => ({
          attribute, value: null, raw: null, quote: null, status: 'unsupported',
          reason: `read by a synthesized extractor that a re-check rejected later in the run (${rejected.get(attribute)}); the model reads it again`,
        })),
        issues: [],
        attributeHashes: record.attributeHashes.filter((hash) => !dropped.has(hash)),
        onlyAttributes: attributes,
      });
    }));
  }
  for (const [attribute, count] of Object.entries(report.valuesFromCode)) if (count <= 0) delete report.valuesFromCode[attribute];
  const sources = new Set(records.map((record) => record.source));
  const summary = await runExtraction({ ...options, documents: options.documents.filter((document) => sources.has(document.source)), onProgress: undefined });
  return summary.done;
}

function accepted(extractors: readonly SynthesizedExtractor[]): SynthesizedExtractor[] {
  return extractors.filter((extractor) => extractor.status === 'accepted');
}

/** `count` distinct indices spread evenly over `0 … length - 1` (length > count). */
export function spread(length: number, count: number): number[] {
  return Array.from({ length: count }, (_, index) => Math.floor(((index + 0.5) * length) / count));
}
