import { describe, expect, it } from 'vitest';
import { SragError, type ErrorFix } from '../../core/index.ts';
import { cellMessage } from '../../sheets-addon/src/custom-functions/cell-message.ts';

describe('an error\'s fix in a cell', () => {
  const failed = (fix: ErrorFix, hint: string) => new SragError({ code: fix.kind === 'answer-from-sql' ? 'INPUT_INVALID' : fix.kind === 'name-table' ? 'TABLE_NOT_FOUND' : 'ATTRIBUTES_MISSING', message: 'it failed', hint, fix });

  it('says what the cell needs in place of the command line\'s option, for every kind of fix', () => {
    const cells = [
      cellMessage(failed({ kind: 'name-table', choices: ['hotels', 'cities'] }, 'name one of: hotels, cities'), []),
      cellMessage(failed({ kind: 'extend-schema', question: 'q' }, 'ask with --extend-schema to add and extract them (srag ask)'), []),
      cellMessage(failed({ kind: 'answer-from-sql' }, 'ask without the hybrid path'), []),
    ];
    expect(cells).toEqual([
      '⚠ srag: it failed — SRAG_ASK answers from the one table its records_range holds: pass the range of the records you mean, with its header row, e.g. Records!A1:R',
      '⚠ srag: it failed — add a row for each to the Schema sheet (attribute, type, description) and run Extensions › srag › Extract all rows, which extracts every document again for the new schema',
      '⚠ srag: it failed — SRAG_ASK answers from the rows of the range alone',
    ]);
  });

  it('keeps an input error\'s own hint when it carries no fix', () => {
    const error = new SragError({ code: 'INPUT_INVALID', message: 'records_range must be a range with its header row', hint: 'e.g. =SRAG_ASK("How many hotels are in Spain?", Records!A1:R)' });
    expect(cellMessage(error, [])).toBe('⚠ srag: records_range must be a range with its header row (e.g. =SRAG_ASK("How many hotels are in Spain?", Records!A1:R))');
  });
});
