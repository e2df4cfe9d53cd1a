/**
 * The counting behind `npm run bench:evidence` (see `bench/evidence-slips.ts`), importable so that a
 * test can hold the same targets over a smaller corpus: each document's reply is made by the
 * stand-in's own answer function, in process, with one slip (see `ModelSlip`), and read by srag's
 * `readRecordReply` with evidence, as an extraction reads it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { documentText, findColumnOutliers, parseRecordSchema, type NormalizedValue, type RecordSchema } from '../core/index.ts';
import { readRecordReply } from '../core/extraction/read-record-reply.ts';
import { answerProperty } from '../tests/helpers/llm-stand-in/answer-property.ts';
import type { GoldRecord } from '../tests/helpers/llm-stand-in/load-gold-corpus.ts';
import type { ModelSlip } from '../tests/helpers/llm-stand-in/types.ts';
import { generateEvidenceCorpus } from './evidence-corpus.ts';

export interface SlipCorpus {
  name: string;
  schema: RecordSchema;
  documents: Array<{ text: string; record: GoldRecord }>;
}

/** No slip, one, or two together ("misread-values+retype-quotes": a misread value behind a re-typed, maybe elided, quote). */
export type SlipOrNone = string;
/** Slips that keep the true value (a refusal loses it) and slips that give a wrong one (a keep lets it in). */
export const trueValueSlips: SlipOrNone[] = ['none', 'retype-quotes', 'elide-over-value', 'terse-quotes'];
export const wrongValueSlips: SlipOrNone[] = ['decoy-values', 'misread-values', 'misread-values+retype-quotes'];

export interface Tally {
  /** Values the slip changed (every stated value with no slip). */
  offered: number;
  kept: number;
  refused: number;
  /** Of kept: values other than the gold one. */
  wrongKept: number;
  /** Gold values not kept as they are. */
  trueLost: number;
  /** A few values worth a look: a true value lost, or a wrong one kept. */
  examples: string[];
  /** Every wrong value kept, for the outlier count (`tallyOutliers`). */
  wrongKeptValues: Array<{ attribute: string; document: string; value: number }>;
}

export const emptyTally = (): Tally => ({ offered: 0, kept: 0, refused: 0, wrongKept: 0, trueLost: 0, examples: [], wrongKeptValues: [] });

/** The generated domains (`evidence-corpus.ts`) and, when asked, the sample corpora `examples/hotels` and `examples/worldcup`. */
export function slipCorpora({ seed, count, samples }: { seed: number; count: number; samples: boolean }): SlipCorpus[] {
  const generated = generateEvidenceCorpus({ seed, count }).map((domain) => ({ name: domain.name, schema: parseRecordSchema(domain.schema), documents: domain.documents }));
  return samples ? [...generated, sampleCorpus('examples/hotels'), sampleCorpus('examples/worldcup')] : generated;
}

function sampleCorpus(directory: string): SlipCorpus {
  const schema = parseRecordSchema(JSON.parse(readFileSync(join(directory, 'schema.json'), 'utf8')));
  const documents = readFileSync(join(directory, 'gold/records.jsonl'), 'utf8').trim().split('\n').map((line) => {
    const record = JSON.parse(line) as GoldRecord;
    const path = join(directory, record.document);
    return { text: documentText(path, readFileSync(path, 'utf8')), record };
  });
  return { name: `${directory.split('/').at(-1)} (sample)`, schema, documents };
}

function sameValue(kept: NormalizedValue, gold: unknown): boolean {
  if (typeof kept === 'number' && typeof gold === 'number') return Math.abs(kept - gold) <= 1e-9 * Math.max(1, Math.abs(gold));
  return kept === gold;
}

/**
 * Every stated value of every document answered with `slip` and read with evidence: how many the
 * slip changed, and what the check did with them. `only` narrows the values counted.
 */
export function tallySlip(corpus: SlipCorpus, slip: SlipOrNone, only?: (attribute: string, gold: GoldRecord['values'][string]) => boolean): Tally {
  const tally = emptyTally();
  const slips = slip === 'none' ? [] : (slip.split('+') as ModelSlip[]);
  const keepsTrueValue = trueValueSlips.includes(slip);
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
      if (!gold || gold.quote === null || !changed.has(evidence.attribute) || (only && !only(evidence.attribute, gold))) continue;
      tally.offered += 1;
      const kept = evidence.status === 'supported';
      const right = kept && sameValue(evidence.value, gold.value);
      if (kept) tally.kept += 1;
      else tally.refused += 1;
      if (kept && !right) {
        tally.wrongKept += 1;
        if (typeof evidence.value === 'number') tally.wrongKeptValues.push({ attribute: evidence.attribute, document: document.record.document, value: evidence.value });
      }
      if (keepsTrueValue && !right) tally.trueLost += 1;
      if ((keepsTrueValue ? !right : kept) && tally.examples.length < 3) {
        tally.examples.push(`${document.record.document} ${evidence.attribute}: ${JSON.stringify(evidence.raw)} / ${JSON.stringify(evidence.quote)} → ${evidence.status}${evidence.reason ? ` (${evidence.reason})` : ''}`);
      }
    }
  }
  return tally;
}

export interface SlipTargets {
  decoysReachingTable: { reached: number; offered: number };
  behindRetypedOrElided: { kept: number; offered: number };
  behindTerseQuotes: { kept: number; offered: number };
  countsOfOne: { kept: number; offered: number };
  cellsChangedWithNoSlip: { changed: number; offered: number };
}

/** Every slip over every corpus, the totals per slip, and the figures issue 37 sets targets for. */
export function tallyEvidenceSlips(corpora: SlipCorpus[]): { perCorpus: Array<{ corpus: string; slip: SlipOrNone; tally: Tally }>; totals: Map<SlipOrNone, Tally>; targets: SlipTargets } {
  const perCorpus: Array<{ corpus: string; slip: SlipOrNone; tally: Tally }> = [];
  const totals = new Map<SlipOrNone, Tally>();
  for (const corpus of corpora) {
    for (const slip of [...trueValueSlips, ...wrongValueSlips]) {
      const tally = tallySlip(corpus, slip);
      perCorpus.push({ corpus: corpus.name, slip, tally });
      const total = totals.get(slip) ?? emptyTally();
      for (const key of ['offered', 'kept', 'refused', 'wrongKept', 'trueLost'] as const) total[key] += tally[key];
      totals.set(slip, total);
    }
  }
  // Counts of one: a count column's true value 1, derived from a one-item list, quoted as written and re-typed.
  const countsOfOne = { kept: 0, offered: 0 };
  for (const corpus of corpora) {
    for (const slip of ['none', 'retype-quotes'] as const) {
      const tally = tallySlip(corpus, slip, (_, gold) => gold.value === 1 && gold.raw === null);
      countsOfOne.offered += tally.offered;
      countsOfOne.kept += tally.offered - tally.trueLost;
    }
  }
  const total = (slip: SlipOrNone) => totals.get(slip)!;
  const retypedOrElided = [total('retype-quotes'), total('elide-over-value')];
  const offered = retypedOrElided.reduce((sum, tally) => sum + tally.offered, 0);
  return {
    perCorpus,
    totals,
    targets: {
      decoysReachingTable: { reached: total('decoy-values').wrongKept, offered: total('decoy-values').offered },
      behindRetypedOrElided: { kept: offered - retypedOrElided.reduce((sum, tally) => sum + tally.trueLost, 0), offered },
      behindTerseQuotes: { kept: total('terse-quotes').offered - total('terse-quotes').trueLost, offered: total('terse-quotes').offered },
      countsOfOne,
      cellsChangedWithNoSlip: { changed: total('none').trueLost, offered: total('none').offered },
    },
  };
}

export interface OutlierTally {
  /** Numeric columns of the careful model's table, and those in which a value was named though none was wrong. */
  cleanColumns: number;
  falseAlarms: string[];
  /** One value read a thousand times too large (a unit slip no quote was checked for) put in each numeric column in turn. */
  unitSlips: { named: number; offered: number };
  /** Each decoy the evidence check kept, put in its column in turn. */
  keptDecoys: { named: number; offered: number };
}

/**
 * Item 4's figures, over whole columns (every row counted, as an answer with no WHERE): how often
 * `findColumnOutliers` names a value in a column where none is wrong, and how often it names a
 * wrong one that reached the table — a unit slip (×1,000), or a decoy the check let through.
 */
export function tallyOutliers(corpora: SlipCorpus[], keptDecoys: Tally['wrongKeptValues'] = []): OutlierTally {
  const tally: OutlierTally = { cleanColumns: 0, falseAlarms: [], unitSlips: { named: 0, offered: 0 }, keptDecoys: { named: 0, offered: 0 } };
  const named = (values: Array<{ value: number; document: string }>, column: string, document: string) => {
    const sorted = [...values].sort((left, right) => left.value - right.value);
    const outliers = findColumnOutliers({ count: sorted.length, lowest: sorted.slice(0, 3), highest: sorted.slice(-3).reverse() }, column);
    return { any: outliers.length > 0, it: outliers.some((outlier) => outlier.document === document) };
  };
  for (const corpus of corpora) {
    for (const attribute of corpus.schema.attributes.filter((definition) => definition.kind === 'number' || definition.kind === 'integer')) {
      const column = corpus.documents.flatMap((document) => {
        const gold = document.record.values[attribute.name];
        return typeof gold?.value === 'number' ? [{ value: gold.value, document: document.record.document }] : [];
      });
      if (column.length === 0) continue;
      tally.cleanColumns += 1;
      if (named(column, attribute.name, '').any) tally.falseAlarms.push(`${corpus.name}.${attribute.name}`);
      for (const [index, entry] of column.entries()) {
        if (entry.value === 0) continue;
        tally.unitSlips.offered += 1;
        if (named(column.map((other, at) => (at === index ? { ...other, value: other.value * 1000 } : other)), attribute.name, entry.document).it) tally.unitSlips.named += 1;
      }
      for (const decoy of keptDecoys.filter((kept) => kept.attribute === attribute.name && column.some((entry) => entry.document === kept.document))) {
        tally.keptDecoys.offered += 1;
        if (named(column.map((entry) => (entry.document === decoy.document ? { ...entry, value: decoy.value } : entry)), attribute.name, decoy.document).it) tally.keptDecoys.named += 1;
      }
    }
  }
  return tally;
}
