/**
 * Evidence-check benchmark: `npx tsx bench/evidence-check.ts [--rounds N] [--reference DIR] [--hotels N]`
 *
 * What checking each value against its document costs, per record, over the gold records of the
 * sample corpora (a model reply made of the gold values and quotes) and `--hotels` generated hotel
 * pages with the stand-in's replies (default 3,000, the CLI benchmark's corpus): reading the reply with
 * evidence (fold the document once, find every quote, check every value against its quote) versus
 * without (normalization only), as CPU milliseconds per record and as a ratio; the same on one record
 * of a 1 MB document with elided quotes; and the fold's throughput in MB/s. Timings are
 * measurements of this machine, not assertions; compare the ratios between runs.
 *
 * `--reference DIR` also times the evidence check of another checkout (DIR holds its `core/` and its
 * `package.json`, e.g. `git archive main core package.json | tar -x -C DIR`) on the same records,
 * rounds interleaved with this one's, and prints before/after per corpus: the machine's load then
 * weighs on both alike. Without the `package.json` ("type": "module") tsx compiles that core as
 * CommonJS, each imported function read through a getter: slower in V8's first tiers than this
 * checkout's ES modules (main against main, a fresh process's first 250 records ~20% slower), a
 * difference that would be counted as this checkout's gain.
 *
 * `--cold N` (with `--reference`) measures what `srag ingest` pays: the FIRST pass over the
 * generated hotel pages in a fresh process, while V8 still runs the check in its interpreter and
 * baseline tiers. N processes per build, started in turn (reference, this, reference, …), each
 * reading every record once; half of them time the pass (CPU of the whole process, all threads,
 * so the garbage collector's helper threads count), the other half sample what it allocates (V8's
 * sampling heap profiler, counting objects the collector has already freed) as bytes per record.
 * Each child first sets the CLI's V8 tiering flags (`delayOptimization()`, as `srag` does at start)
 * before it imports the build's core, so the tiers warm up as they do in `srag ingest`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { RecordSchema } from '../core/index.ts';
import type { GoldRecord } from '../tests/helpers/llm-stand-in/load-gold-corpus.ts';

const { values: flags } = parseArgs({
  options: {
    rounds: { type: 'string', default: '20' }, reference: { type: 'string' }, hotels: { type: 'string', default: '3000' },
    cold: { type: 'string' }, 'cold-child': { type: 'string' }, core: { type: 'string' }, measure: { type: 'string' },
  },
});
const rounds = Math.max(1, Number(flags.rounds));
if (flags.reference && !existsSync(join(flags.reference, 'package.json'))) {
  throw new Error(`evidence-check: ${flags.reference} has no package.json, so tsx would load its core as CommonJS and time it slower than it is; extract it with \`git archive REV core package.json | tar -x -C ${flags.reference}\``);
}
/** Where the first pass's CPU is marked: the interpreter's records, the baseline's, then the optimized code's. */
const coldSegments = [250, 1000, 2000, Infinity];
if (flags['cold-child']) {
  await coldChild(flags['cold-child'], flags.core!, flags.measure === 'allocation');
  process.exit(0);
}
// This checkout's core is imported here, after a cold child has gone its own way: a child imports
// only the build it times, as the reference's does, not this checkout's besides (main timed against
// itself read ~8% faster in the slot of the checkout the script was started from).
const { documentText, parseRecordSchema } = await import('../core/index.ts');
const { foldQuoteText } = await import('../core/extraction/fold-quote-text.ts');
const { readRecordReply } = await import('../core/extraction/read-record-reply.ts');
const { answerProperty } = await import('../tests/helpers/llm-stand-in/answer-property.ts');
const { generateHotelCorpus } = await import('./generate-hotel-corpus.ts');

interface Case {
  schema: RecordSchema;
  text: string;
  reply: Record<string, unknown>;
}

function goldCases(directory: string): Case[] {
  const schema = parseRecordSchema(JSON.parse(readFileSync(join(directory, 'schema.json'), 'utf8')));
  return readFileSync(join(directory, 'gold/records.jsonl'), 'utf8').trim().split('\n').map((line) => {
    const record = JSON.parse(line) as { document: string; values: Record<string, { value: unknown; raw: unknown; quote: string | null }> };
    const path = join(directory, record.document);
    const reply = Object.fromEntries(Object.entries(record.values).map(([name, gold]) => [name, { value: gold.quote === null ? null : gold.raw ?? gold.value, quote: gold.quote }]));
    return { schema, text: documentText(path, readFileSync(path, 'utf8')), reply };
  });
}

/**
 * CPU milliseconds per call of `run` over `cases`, the median of `rounds` rounds. CPU time, not wall
 * time: on a shared machine the wall clock mostly measures the other processes.
 */
function millisecondsPerCase(cases: readonly Case[], run: (item: Case) => void): number {
  return interleavedMilliseconds(cases, [run])[0]!;
}

/**
 * `millisecondsPerCase` for several runs at once, one round of each in turn, the order reversed
 * every other round: a run pays for the garbage the run before it left (a megabyte document's
 * folds leave tens of megabytes), so a fixed order would weigh on the later run.
 */
function interleavedMilliseconds(cases: readonly Case[], runs: ReadonlyArray<(item: Case) => void>): number[] {
  const times = runs.map((): number[] => []);
  for (let round = 0; round < rounds; round += 1) {
    const order = runs.map((run, index) => [run, index] as const);
    if (round % 2 === 1) order.reverse();
    order.forEach(([run, index]) => {
      const started = process.cpuUsage();
      for (const item of cases) run(item);
      const used = process.cpuUsage(started);
      times[index]!.push((used.user + used.system) / 1000 / cases.length);
    });
  }
  return times.map((list) => list.sort((left, right) => left - right)[Math.floor(list.length / 2)]!);
}

const withEvidence = (item: Case) => readRecordReply(item.reply, { schema: item.schema, documentText: item.text, withEvidence: true, strict: false });
const withoutEvidence = (item: Case) => readRecordReply(item.reply, { schema: item.schema, documentText: item.text, withEvidence: false, strict: false });

/**
 * The generated hotel pages of the CLI benchmark (`bench/generate-hotel-corpus.ts`), each with the
 * reply the stand-in gives there (`answerProperty`, no slip): what `srag ingest` reads in `npm run bench`.
 */
function generatedHotelCases(count: number): Case[] {
  const directory = mkdtempSync(join(tmpdir(), 'srag-evidence-check-'));
  try {
    generateHotelCorpus(directory, count);
    const schema = parseRecordSchema(JSON.parse(readFileSync(join(directory, 'schema.json'), 'utf8')));
    return readFileSync(join(directory, 'gold/records.jsonl'), 'utf8').trim().split('\n').map((line) => {
      const record = JSON.parse(line) as GoldRecord;
      const path = join(directory, record.document);
      const text = documentText(path, readFileSync(path, 'utf8'));
      const reply = Object.fromEntries(schema.attributes.map((attribute, position) => [attribute.name, answerProperty(attribute.name, record, text, [], position)]));
      return { schema, text, reply };
    });
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const corpora: Array<[string, Case[]]> = [
  ['hotels', goldCases('examples/hotels')],
  ['worldcup', goldCases('examples/worldcup')],
  ...(Number(flags.hotels) > 0 ? [[`generated hotel pages`, generatedHotelCases(Number(flags.hotels))] as [string, Case[]]] : []),
];

if (flags.cold) {
  if (!flags.reference || Number(flags.hotels) <= 0) throw new Error('evidence-check: --cold needs --reference DIR (the checkout to compare with) and generated hotel pages');
  await coldPasses(Number(flags.cold), corpora[corpora.length - 1]![1]);
  process.exit(0);
}

// One record of a 1 MB document: the hotel page padded with prose, its quotes elided across it.
const hotel = corpora[0]![1][0]!;
const padding = 'Guests describe the lobby, the garden and the library as calm and well kept, year after year. '.repeat(11_000);
const large: Case = {
  schema: hotel.schema,
  text: `${padding}\n${hotel.text}\n${padding}`,
  reply: Object.fromEntries(Object.entries(hotel.reply).map(([name, entry]) => {
    const { value, quote } = entry as { value: unknown; quote: string | null };
    const words = quote?.split(' ') ?? [];
    return [name, { value, quote: words.length >= 4 ? `${words.slice(0, 2).join(' ')} … ${words.slice(2).join(' ')}` : quote }];
  })),
};

const rows: string[][] = [['records', 'document KB', 'with evidence, CPU ms/record', 'normalization only, CPU ms/record', 'ratio']];
for (const [name, cases] of [...corpora, ['1 MB document, elided quotes', [large]] as [string, Case[]]]) {
  const kilobytes = cases.reduce((sum, item) => sum + item.text.length, 0) / cases.length / 1024;
  const checked = millisecondsPerCase(cases, withEvidence);
  const baseline = millisecondsPerCase(cases, withoutEvidence);
  rows.push([`${name} (${cases.length})`, kilobytes.toFixed(0), checked.toFixed(3), baseline.toFixed(3), (checked / baseline).toFixed(1)]);
}
const foldMilliseconds = millisecondsPerCase([large], (item) => foldQuoteText(item.text));
const supported = withEvidence(large);
if (!('value' in supported) || supported.value.evidence.some((entry) => entry.value !== null && entry.status !== 'supported')) {
  throw new Error('the 1 MB case did not keep every value: the benchmark would measure a failure path');
}

const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
for (const row of rows) console.log(row.map((cell, column) => cell.padEnd(widths[column]!)).join('  '));
console.log(`fold: ${(large.text.length / 1024 / 1024 / (foldMilliseconds / 1000)).toFixed(0)} MB/s (${foldMilliseconds.toFixed(1)} ms for ${(large.text.length / 1024 / 1024).toFixed(1)} MB)`);

if (flags.reference) {
  const { readRecordReply: referenceRead } = (await import(join(flags.reference, 'core/extraction/read-record-reply.ts'))) as { readRecordReply: typeof readRecordReply };
  const before = (item: Case) => referenceRead(item.reply, { schema: item.schema, documentText: item.text, withEvidence: true, strict: false });
  console.log(`\nwith evidence, CPU ms/record: ${flags.reference} (before) against this checkout (after), rounds interleaved`);
  for (const [name, cases] of [...corpora, ['1 MB document, elided quotes', [large]] as [string, Case[]]]) {
    const [old, now] = interleavedMilliseconds(cases, [before, withEvidence]);
    console.log(`  ${name}: ${old!.toFixed(3)} → ${now!.toFixed(3)} (${(old! / now!).toFixed(1)}× less)`);
  }
}

/** What one fresh process reports of its first pass (see `coldChild`). */
interface ColdReport {
  cpuMilliseconds: number[];
  bytes?: number;
}

/**
 * `--cold`: fresh processes per build, interleaved, half timing the first pass and half sampling
 * its allocation (see the header). The cases are written to a file once; each child reads it
 * before the pass, then imports the build's `readRecordReply`.
 */
async function coldPasses(count: number, cases: readonly Case[]): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'srag-evidence-cold-'));
  try {
    const file = join(directory, 'cases.json');
    // The schema once, as `srag ingest` parses it once: what is cached per attribute stays cached.
    writeFileSync(file, JSON.stringify({ schema: cases[0]!.schema, items: cases.map(({ text, reply }) => ({ text, reply })) }));
    const builds = [['before', resolve(flags.reference!)], ['after', resolve('.')]] as const;
    const results = new Map<string, { cpu: number[][]; bytes: number[] }>(builds.map(([name]) => [name, { cpu: [], bytes: [] }]));
    for (let round = 0; round < count; round += 1) {
      for (const measure of ['cpu', 'allocation']) {
        for (const [name, core] of round % 2 === 0 ? builds : [...builds].reverse()) {
          const output = execFileSync(process.execPath, ['--import', 'tsx', 'bench/evidence-check.ts', '--cold-child', file, '--core', core, '--measure', measure], { encoding: 'utf8' });
          const report = JSON.parse(output.trim().split('\n').pop()!) as ColdReport;
          if (measure === 'cpu') results.get(name)!.cpu.push(report.cpuMilliseconds);
          else results.get(name)!.bytes.push(report.bytes!);
        }
      }
    }
    const median = (list: number[]) => [...list].sort((left, right) => left - right)[Math.floor(list.length / 2)]!;
    const range = (list: number[], digits: number) => `${Math.min(...list).toFixed(digits)}–${Math.max(...list).toFixed(digits)}`;
    console.log(`\nfirst pass over ${cases.length} generated hotel pages in a fresh process, ${count} processes per build and measure (${flags.reference} before, this checkout after)`);
    for (const [name] of builds) {
      const { cpu, bytes } = results.get(name)!;
      const totals = cpu.map((marks) => marks[marks.length - 1]!);
      const segments = coldSegments.map((end, index) => {
        const start = index === 0 ? 0 : coldSegments[index - 1]!;
        const perRecord = cpu.map((marks) => (marks[index]! - (index === 0 ? 0 : marks[index - 1]!)) / (Math.min(end, cases.length) - start));
        return `records ${start + 1}–${Math.min(end, cases.length)} ${median(perRecord).toFixed(3)}`;
      });
      const kilobytes = bytes.map((value) => value / cases.length / 1024);
      console.log(`  ${name}: CPU ${median(totals).toFixed(0)} ms (${range(totals, 0)}), ${(median(totals) / cases.length).toFixed(3)} ms/record; median ms/record by segment: ${segments.join(', ')}`);
      console.log(`  ${name}: allocated ${median(kilobytes).toFixed(1)} KB/record (${range(kilobytes, 1)}), ${(median(bytes) / 1e6).toFixed(0)} MB in all`);
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * One fresh process of `--cold`: reads the cases, imports `readRecordReply` from `core`, and reads
 * every reply once with evidence, printing one JSON line: the process's CPU at each of
 * `coldSegments`, or (`allocation`) the bytes V8's sampling heap profiler saw allocated during the
 * pass, freed objects included.
 */
async function coldChild(file: string, core: string, allocation: boolean): Promise<void> {
  const { schema, items } = JSON.parse(readFileSync(file, 'utf8')) as { schema: RecordSchema; items: Array<Omit<Case, 'schema'>> };
  const cases: Case[] = items.map((item) => ({ ...item, schema }));
  const { delayOptimization } = await import('../node/runtime/delay-optimization.ts');
  delayOptimization();
  const { readRecordReply: read } = (await import(join(core, 'core/extraction/read-record-reply.ts'))) as { readRecordReply: typeof readRecordReply };
  const { Session } = await import('node:inspector');
  const session = new Session();
  const post = (method: string, parameters?: object) => new Promise<unknown>((done, fail) => session.post(method, parameters ?? {}, (error, result) => (error ? fail(error) : done(result))));
  if (allocation) {
    session.connect();
    await post('HeapProfiler.enable');
    await post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  }
  const marks: number[] = [];
  const started = process.cpuUsage();
  for (let index = 0; index < cases.length; index += 1) {
    const item = cases[index]!;
    read(item.reply, { schema: item.schema, documentText: item.text, withEvidence: true, strict: false });
    if (index + 1 === cases.length || coldSegments.includes(index + 1)) {
      const used = process.cpuUsage(started);
      marks.push((used.user + used.system) / 1000);
    }
  }
  if (!allocation) {
    console.log(JSON.stringify({ cpuMilliseconds: marks } satisfies ColdReport));
    return;
  }
  const { profile } = (await post('HeapProfiler.stopSampling')) as { profile: { head: SampledNode } };
  const sum = (node: SampledNode): number => node.selfSize + node.children.reduce((total, child) => total + sum(child), 0);
  console.log(JSON.stringify({ cpuMilliseconds: marks, bytes: sum(profile.head) } satisfies ColdReport));
}

interface SampledNode {
  selfSize: number;
  children: SampledNode[];
}
