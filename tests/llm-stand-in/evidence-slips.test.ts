import { describe, expect, it } from 'vitest';
import { slipCorpora, tallyEvidenceSlips, tallyOutliers } from '../../bench/evidence-slip-tally.ts';

/**
 * Issue 37's targets, held by the suite over a small slice of the benchmark's corpus (25 documents a
 * domain; `npm run bench:evidence` runs 250 and the sample corpora): the stand-in makes each
 * slip on purpose (`decoy-values`, `elide-over-value`, `terse-quotes`, re-typed and misread values)
 * and srag's reading of the reply keeps or refuses each value. Counts, not timings.
 */
describe('the evidence check against a model\'s slips, over CVs, hotel pages, filings and tournament reports', () => {
  const corpora = slipCorpora({ seed: 37, count: 25, samples: false });
  const { totals, targets } = tallyEvidenceSlips(corpora);

  it('lets at most 10% of the numbers a model takes from sentences about something else reach the table', () => {
    expect(targets.decoysReachingTable.offered).toBeGreaterThan(300);
    expect(targets.decoysReachingTable.reached / targets.decoysReachingTable.offered).toBeLessThanOrEqual(0.1);
  });

  it('keeps at least 99% of true values behind re-typed or elided quotes, and those behind terse ones', () => {
    expect(targets.behindRetypedOrElided.offered).toBeGreaterThan(600);
    expect(targets.behindRetypedOrElided.kept / targets.behindRetypedOrElided.offered).toBeGreaterThanOrEqual(0.99);
    expect(totals.get('elide-over-value')!.offered).toBeGreaterThan(150);
    expect(targets.behindTerseQuotes.kept / targets.behindTerseQuotes.offered).toBeGreaterThanOrEqual(0.99);
  });

  it('keeps every count of one read from a one-item list, and changes no cell when the model makes no slip', () => {
    expect(targets.countsOfOne.offered).toBeGreaterThan(10);
    expect(targets.countsOfOne.kept).toBe(targets.countsOfOne.offered);
    expect(targets.cellsChangedWithNoSlip).toEqual({ changed: 0, offered: totals.get('none')!.offered });
  });

  it('still refuses misread numbers, with the quote re-typed or elided as well', () => {
    for (const slip of ['misread-values', 'misread-values+retype-quotes']) {
      const tally = totals.get(slip)!;
      expect(tally.offered).toBeGreaterThan(500);
      expect(tally.wrongKept / tally.offered, slip).toBeLessThan(0.01);
    }
  });

  it('names a value read a thousand times too large as far from the rest of its column, and nothing in a column where none is wrong (item 4)', () => {
    const outliers = tallyOutliers(corpora);
    expect(outliers.cleanColumns).toBeGreaterThan(15);
    expect(outliers.falseAlarms).toEqual([]);
    expect(outliers.unitSlips.offered).toBeGreaterThan(300);
    expect(outliers.unitSlips.named / outliers.unitSlips.offered).toBeGreaterThanOrEqual(0.99);
  });
});
