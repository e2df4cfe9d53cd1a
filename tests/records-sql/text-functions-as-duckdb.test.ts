import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlValue } from '../../core/index.ts';
import { BothEngines, isRefusal } from './helpers/both-engines.ts';

/**
 * The repros of issue 42 item 7 for text, each run through DuckDB and records-sql. DuckDB maps
 * case one code point to one code point (utf8proc's simple mapping), cuts left() and right() by a
 * negative count from the other end, and reverses by grapheme clusters; JavaScript's
 * toUpperCase, toLowerCase and code-point reversal do none of these.
 *
 * Evidence: DuckDB v1.5.5's source (github.com/duckdb/duckdb at tag v1.5.5):
 * src/function/scalar/string/caseconvert.cpp (per code point, utf8proc_toupper/tolower),
 * extension/core_functions/scalar/string/reverse.cpp (ASCII byte by byte, else grapheme clusters),
 * third_party/utf8proc/utf8proc.cpp (grapheme_break_extended), extension/core_functions/scalar/string/left_right.cpp
 * and src/function/scalar/string/substring.cpp; and DuckDB itself, run in-process.
 */
let engines: BothEngines;

beforeAll(async () => {
  engines = await BothEngines.open();
  const rows: SqlValue[][] = [[1, 'straße'], [2, 'İstanbul'], [3, 'e\u0301té 👍🏽 👨‍👩‍👧 🇫🇷'], [4, 'ΣΑΣ ﬁ K'], [5, 'क्षa\r\nb'], [6, 'abc']];
  await engines.load({ table: 'texts', records: { columns: [{ name: 'id', type: 'BIGINT' }, { name: 'body', type: 'VARCHAR' }], rows }, questions: [] });
});

afterAll(() => engines.close());

describe('records-sql handles Unicode text as DuckDB does', () => {
  it("upper-cases 'straße' to 'STRAẞE' (one letter for ß, not 'SS') and leaves 'ﬁ' as it is", async () => {
    await engines.expectAnswer("SELECT upper('straße'), upper('ﬁ'), upper('ŉ')", [['STRAẞE', 'ﬁ', 'ŉ']]);
  });

  it("lower-cases 'İstanbul' to 'istanbul' (no combining dot) and a final sigma to σ", async () => {
    await engines.expectAnswer("SELECT lower('İstanbul'), length(lower('İstanbul')), lower('ΣΑΣ'), lower('K')", [['istanbul', 8, 'σασ', 'k']]);
  });

  it('takes all but the last characters with left(s, -1) and all but the first with right(s, -1)', async () => {
    await engines.expectAnswer("SELECT left('abc', -1), right('abc', -1), left('abc', -5), right('abc', -5), left('ébc', -1), left('abc', 0)", [['ab', 'bc', '', '', 'éb', '']]);
  });

  it('reverses combining marks, emoji sequences and flags whole, and ASCII text character by character', async () => {
    await engines.expectAnswer('SELECT id, reverse(body) FROM texts ORDER BY id', [
      [1, 'eßarts'], [2, 'lubnatsİ'], [3, '🇫🇷 👨‍👩‍👧 👍🏽 éte\u0301'], [4, 'K ﬁ ΣΑΣ'], [5, 'b\r\naक्ष'], [6, 'cba'],
    ]);
  });

  it('upper- and lower-cases stored text one code point at a time', async () => {
    await engines.expectAnswer('SELECT id, upper(body), lower(body) FROM texts WHERE id <= 2 ORDER BY id', [[1, 'STRAẞE', 'straße'], [2, 'İSTANBUL', 'istanbul']]);
  });

  it('matches ILIKE with the same lower-casing (ẞ is ß, İ is i), not JavaScript\'s', async () => {
    await engines.expectAnswer("SELECT 'STRAẞE' ILIKE 'straße', 'İ' ILIKE 'i', 'straße' ILIKE 'STRASSE'", [[true, true, false]]);
  });

  it('refuses a substring whose answer DuckDB takes from the column statistics, rather than guess', async () => {
    const { duckdb, records } = await engines.run("SELECT substring(body, -9, 1) FROM texts WHERE id = 6");
    expect('rows' in duckdb).toBe(true);
    expect('error' in records && isRefusal(records.error)).toBe(true);
  });
});
