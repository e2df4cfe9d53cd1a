/**
 * Evidence-slips benchmark: `npm run bench:evidence [-- --count N --seed S --json]`
 *
 * How the evidence check answers a model's slips (the stand-in makes them on purpose, see
 * `ModelSlip`), over a generated corpus it has not seen (`bench/evidence-corpus.ts`: CVs, hotel
 * pages, filings, tournament reports) and the sample corpora (`examples/hotels`, `examples/worldcup`).
 * Each document's reply is made by the stand-in's own answer function, in process, and read by
 * srag's `readRecordReply` with evidence, as an extraction reads it (`bench/evidence-slip-tally.ts`).
 * Per corpus and slip it prints the values the slip changed (offered), how many the check kept and
 * refused, the true values lost (slips that keep the value) and the wrong values that reached the
 * table (slips that change it). Then the targets of issue 37: decoys reaching the table ≤ 10%, true
 * values behind re-typed or elided quotes kept ≥ 99%, counts of one kept 100%, and with no slip
 * every cell as the gold says. The check makes no model call; the figures are counts, the same on
 * every run of a seed. Misread booleans are kept by design unless the quote ends in an explicit
 * answer ("Pool: Yes"): a boolean is usually derived.
 */
import { parseArgs } from 'node:util';
import { slipCorpora, tallyEvidenceSlips, tallyOutliers, trueValueSlips, type Tally } from './evidence-slip-tally.ts';

const { values: flags } = parseArgs({ options: { count: { type: 'string', default: '250' }, seed: { type: 'string', default: '37' }, json: { type: 'boolean', default: false } } });

const corpora = slipCorpora({ seed: Number(flags.seed), count: Number(flags.count), samples: true });
const { perCorpus, totals, targets } = tallyEvidenceSlips(corpora);
const keptDecoys = perCorpus.filter((entry) => entry.slip === 'decoy-values').flatMap((entry) => entry.tally.wrongKeptValues);
const outliers = tallyOutliers(corpora, keptDecoys);

const percent = (part: number, whole: number) => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`);
const row = (corpus: string, slip: string, tally: Tally) => {
  const keepsTrueValue = (trueValueSlips as string[]).includes(slip);
  return [corpus, slip, String(tally.offered), String(tally.kept), String(tally.refused),
    keepsTrueValue ? `${tally.trueLost} (${percent(tally.trueLost, tally.offered)})` : '-',
    keepsTrueValue ? String(tally.wrongKept) : `${tally.wrongKept} (${percent(tally.wrongKept, tally.offered)})`];
};
const rows: string[][] = [['corpus', 'slip', 'offered', 'kept', 'refused', 'true lost', 'wrong kept'],
  ...perCorpus.map((entry) => row(entry.corpus, entry.slip, entry.tally)),
  ...[...totals].map(([slip, tally]) => row('all', slip, tally))];

const { decoysReachingTable: decoys, behindRetypedOrElided: retyped, behindTerseQuotes: terse, countsOfOne, cellsChangedWithNoSlip: unchanged } = targets;
const checks = [
  ['decoys reaching the table', percent(decoys.reached, decoys.offered), '≤ 10%', decoys.reached <= 0.1 * decoys.offered],
  ['true values behind re-typed or elided quotes kept', percent(retyped.kept, retyped.offered), '≥ 99%', retyped.kept >= 0.99 * retyped.offered],
  ['true values behind terse quotes kept', percent(terse.kept, terse.offered), 'reported', true],
  ['counts of one kept', `${countsOfOne.kept} of ${countsOfOne.offered}`, '100%', countsOfOne.kept === countsOfOne.offered],
  ['cells changed with no slip', `${unchanged.changed} of ${unchanged.offered}`, '0', unchanged.changed === 0],
] as const;

if (flags.json) {
  console.log(JSON.stringify({ seed: Number(flags.seed), count: Number(flags.count), perCorpus: perCorpus.map(({ corpus, slip, tally: { wrongKeptValues, ...tally } }) => ({ corpus, slip, tally })), targets, outliers }, null, 2));
} else {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((cells) => cells[column]!.length)));
  for (const cells of rows) console.log(cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  '));
  console.log('');
  for (const [name, measured, goal, met] of checks) console.log(`${met ? 'met    ' : 'NOT MET'}  ${name}: ${measured} (target ${goal})`);
  console.log(`\nOutliers behind an answer over whole columns (findColumnOutliers): a value named in ${outliers.falseAlarms.length} of ${outliers.cleanColumns} columns where none is wrong${outliers.falseAlarms.length ? ` (${outliers.falseAlarms.join(', ')})` : ''};`
    + ` a value read ×1,000 named in ${outliers.unitSlips.named} of ${outliers.unitSlips.offered} (${percent(outliers.unitSlips.named, outliers.unitSlips.offered)});`
    + ` a decoy the check kept named in ${outliers.keptDecoys.named} of ${outliers.keptDecoys.offered} (${percent(outliers.keptDecoys.named, outliers.keptDecoys.offered)})`);
  console.log('\nExamples (a lost true value, or a wrong value kept):');
  for (const entry of perCorpus) for (const example of entry.tally.examples) console.log(`  ${entry.corpus}, ${entry.slip}: ${example}`);
}
