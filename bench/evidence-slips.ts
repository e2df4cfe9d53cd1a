/**
 * Evidence-slips benchmark: `npm run bench:evidence [-- --count N --seed S --json]`
 *
 * How the evidence check answers a model's slips (the stand-in makes them on purpose, see
 * `ModelSlip`), over a generated corpus it has not seen (`bench/evidence-corpus.ts`: CVs, hotel
 * pages, filings, tournament reports) and the sample corpora (`examples/hotels`, `examples/worldcup`).
 * Each document's reply is made by the stand-in's own answer function, in process, and read by
 * srag's `readRecordReply` with evidence, as an extraction reads it. Per corpus and slip it prints
 * the values the slip changed (offered), how many the check kept and refused, the true values lost
 * (slips that keep the value) and the wrong values that reached the table (slips that change it).
 * Then the targets of issue 37: decoys reaching the table ≤ 10%, true values behind re-typed or
 * elided quotes kept ≥ 99%, counts of one kept 100%, and with no slip every cell as the gold says.
 * No model call is made by the check; the figures are counts, the same on every run of a seed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { documentText, parseRecordSchema, type NormalizedValue, type RecordSchema } from '../core/index.ts';
import { readRecordReply } from '../core/extraction/read-record-reply.ts';
import { answerProperty } from '../tests/helpers/llm-stand-in/answer-property.ts';
import type { GoldRecord } from '../tests/helpers/llm-stand-in/load-gold-corpus.ts';
import type { ModelSlip } from '../tests/helpers/llm-stand-in/types.ts';
import { generateEvidenceCorpus } from './evidence-corpus.ts';

const { values: flags } = parseArgs({ options: { count: { type: 'string', default: '250' }, seed: { type: 'string', default: '37' }, json: { type: 'boolean', default: false } } });

interface Document {
  text: string;
  record: GoldRecord;
}

interface Corpus {
  name: string;
  schema: RecordSchema;
  documents: Document[];
}

function sampleCorpus(directory: string): Corpus {
  const schema = parseRecordSchema(JSON.parse(readFileSync(join(directory, 'schema.json'), 'utf8')));
  const documents = readFileSync(join(directory, 'gold/records.jsonl'), 'utf8').trim().split('\n').map((line) => {
    const record = JSON.parse(line) as GoldRecord;
    const path = join(directory, record.document);
    return { text: documentText(path, readFileSync(path, 'utf8')), record };
  });
  return { name: `${directory.split('/').at(-1)} (sample)`, schema, documents };
}

const corpora: Corpus[] = [
  ...generateEvidenceCorpus({ seed: Number(flags.seed), count: Number(flags.count) }).map((domain) => ({
    name: domain.name, schema: parseRecordSchema(domain.schema), documents: domain.documents,
  })),
  sampleCorpus('examples/hotels'),
  sampleCorpus('examples/worldcup'),
];

/** Slips that keep the true value (a refusal loses it) and slips that give a wrong one (a keep lets it in). */
const trueValueSlips: Array<ModelSlip | 'none'> = ['none', 'retype-quotes', 'elide-over-value', 'terse-quotes'];
const wrongValueSlips: ModelSlip[] = ['decoy-values', 'misread-values'];

interface Tally {
  offered: number;
  kept: number;
  refused: number;
  /** Of kept: values other than the gold one (a wrong value let in, or a true one read wrong). */
  wrongKept: number;
  /** Gold values the check refused. */
  trueLost: number;
  examples: string[];
}

const emptyTally = (): Tally => ({ offered: 0, kept: 0, refused: 0, wrongKept: 0, trueLost: 0, examples: [] });

function sameValue(kept: NormalizedValue, gold: unknown): boolean {
  if (typeof kept === 'number' && typeof gold === 'number') return Math.abs(kept - gold) <= 1e-9 * Math.max(1, Math.abs(gold));
  return kept === gold;
}

/** Every value of every document answered with `slip` and read with evidence; counts per attribute kind where asked. */
function measure(corpus: Corpus, slip: ModelSlip | 'none', only?: (attribute: string, gold: GoldRecord['values'][string]) => boolean): Tally {
  const tally = emptyTally();
  const slips = slip === 'none' ? [] : [slip];
  for (const document of corpus.documents) {
    const reply: Record<string, unknown> = {};
    const changed = new Set<string>();
    corpus.schema.attributes.forEach((attribute, position) => {
      const answer = answerProperty(attribute.name, document.record, document.text, slips, position);
      const careful = answerProperty(attribute.name, document.record, document.text, [], position);
      if (slip === 'none' || JSON.stringify(answer) !== JSON.stringify(careful)) changed.add(attribute.name);
      reply[attribute.name] = answer;
    });
    const read = readRecordReply(reply, { schema: corpus.schema, documentText: document.text, withEvidence: true, strict: false });
    if (!('value' in read)) throw new Error(`${corpus.name} ${document.record.document}: ${read.problems.join('; ')}`);
    for (const evidence of read.value.evidence) {
      const gold = document.record.values[evidence.attribute];
      if (!gold || gold.quote === null || !changed.has(evidence.attribute)) continue;
      if (only && !only(evidence.attribute, gold)) continue;
      tally.offered += 1;
      const kept = evidence.status === 'supported';
      const right = kept && sameValue(evidence.value, gold.value);
      if (kept) tally.kept += 1;
      else tally.refused += 1;
      if (kept && !right) tally.wrongKept += 1;
      const isTrueValueSlip = (trueValueSlips as string[]).includes(slip);
      if (isTrueValueSlip && !right) tally.trueLost += 1;
      const worthShowing = isTrueValueSlip ? !right : kept;
      if (worthShowing && tally.examples.length < 3) {
        tally.examples.push(`${document.record.document} ${evidence.attribute}: ${JSON.stringify(evidence.raw)} / ${JSON.stringify(evidence.quote)} → ${evidence.status}${evidence.reason ? ` (${evidence.reason})` : ''}`);
      }
    }
  }
  return tally;
}

const percent = (part: number, whole: number) => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`);

const rows: string[][] = [['corpus', 'slip', 'offered', 'kept', 'refused', 'true lost', 'wrong kept']];
const totals = new Map<string, Tally>();
const examples: string[] = [];
for (const corpus of corpora) {
  for (const slip of [...trueValueSlips, ...wrongValueSlips]) {
    const tally = measure(corpus, slip);
    const total = totals.get(slip) ?? emptyTally();
    for (const key of ['offered', 'kept', 'refused', 'wrongKept', 'trueLost'] as const) total[key] += tally[key];
    totals.set(slip, total);
    const isTrueValueSlip = (trueValueSlips as string[]).includes(slip);
    rows.push([corpus.name, slip, String(tally.offered), String(tally.kept), String(tally.refused),
      isTrueValueSlip ? `${tally.trueLost} (${percent(tally.trueLost, tally.offered)})` : '-',
      isTrueValueSlip ? String(tally.wrongKept) : `${tally.wrongKept} (${percent(tally.wrongKept, tally.offered)})`]);
    examples.push(...tally.examples.map((example) => `${corpus.name}, ${slip}: ${example}`));
  }
}
for (const [slip, tally] of totals) {
  const isTrueValueSlip = (trueValueSlips as string[]).includes(slip);
  rows.push(['all', slip, String(tally.offered), String(tally.kept), String(tally.refused),
    isTrueValueSlip ? `${tally.trueLost} (${percent(tally.trueLost, tally.offered)})` : '-',
    isTrueValueSlip ? String(tally.wrongKept) : `${tally.wrongKept} (${percent(tally.wrongKept, tally.offered)})`]);
}

// Counts of one: a count column's true value 1, read from a one-item list, with and without re-typing.
const countsOfOne = emptyTally();
for (const corpus of corpora) {
  for (const slip of ['none', 'retype-quotes'] as const) {
    const tally = measure(corpus, slip, (attribute, gold) => gold.value === 1 && gold.raw === null);
    countsOfOne.offered += tally.offered;
    countsOfOne.kept += tally.kept - tally.wrongKept;
  }
}

const decoys = totals.get('decoy-values')!;
const retypedOrElided = ['retype-quotes', 'elide-over-value'].map((slip) => totals.get(slip)!);
const behindRetyped = { offered: retypedOrElided.reduce((sum, tally) => sum + tally.offered, 0), lost: retypedOrElided.reduce((sum, tally) => sum + tally.trueLost, 0) };
const careful = totals.get('none')!;
const terse = totals.get('terse-quotes')!;
const targets = [
  ['decoys reaching the table', percent(decoys.wrongKept, decoys.offered), '≤ 10%', decoys.wrongKept <= 0.1 * decoys.offered],
  ['true values behind re-typed or elided quotes kept', percent(behindRetyped.offered - behindRetyped.lost, behindRetyped.offered), '≥ 99%', behindRetyped.lost <= 0.01 * behindRetyped.offered],
  ['true values behind terse quotes kept', percent(terse.offered - terse.trueLost, terse.offered), '(reported)', true],
  ['counts of one kept', `${countsOfOne.kept} of ${countsOfOne.offered}`, '100%', countsOfOne.kept === countsOfOne.offered],
  ['cells changed with no slip', `${careful.trueLost} of ${careful.offered}`, '0', careful.trueLost === 0],
] as const;

if (flags.json) {
  console.log(JSON.stringify({ rows, targets, examples }, null, 2));
} else {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows) console.log(row.map((cell, column) => cell.padEnd(widths[column]!)).join('  '));
  console.log('');
  for (const [name, measured, goal, met] of targets) console.log(`${met ? 'met    ' : 'NOT MET'}  ${name}: ${measured} (target ${goal})`);
  console.log('\nExamples (a lost true value, or a wrong value kept):');
  for (const example of examples) console.log(`  ${example}`);
}
