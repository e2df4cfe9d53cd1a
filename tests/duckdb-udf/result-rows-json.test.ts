import { describe, expect, it } from 'vitest';
import { uniqueColumnNames } from '../../app/index.ts';
import { resultRowsJson } from '../../node/sql-functions/llm-bridge/result-rows-json.ts';

describe('resultRowsJson', () => {
  it('writes each row as an object with the columns in the query order, integer-like names included', () => {
    const text = resultRowsJson(['country', '2023', '10'], [['France', 3, 4.5], ['Spain', null, true]]);
    expect(text).toBe('[{"country":"France","2023":3,"10":4.5},{"country":"Spain","2023":null,"10":true}]');
    expect(JSON.parse(text)).toEqual([{ country: 'France', 2023: 3, 10: 4.5 }, { country: 'Spain', 2023: null, 10: true }]);
  });

  it('keeps a repeated column under a name of its own rather than dropping it', () => {
    expect(resultRowsJson(['city', 'city'], [['Paris', 'Lyon']])).toBe('[{"city":"Paris","city_1":"Lyon"}]');
  });

  it('escapes names and values as JSON, and writes an empty result as an empty array', () => {
    expect(JSON.parse(resultRowsJson(['a "b"\n'], [['x\u2028"y"']]))).toEqual([{ 'a "b"\n': 'x\u2028"y"' }]);
    expect(resultRowsJson(['a'], [])).toBe('[]');
  });
});

describe('uniqueColumnNames', () => {
  it('names repeats as DuckDB names the columns of a subquery', () => {
    expect(uniqueColumnNames(['a', 'a', 'a'])).toEqual(['a', 'a_1', 'a_2']);
    expect(uniqueColumnNames(['a', 'a', 'a_1'])).toEqual(['a', 'a_1', 'a_1_1']);
    expect(uniqueColumnNames(['a', 'b', 'A'])).toEqual(['a', 'b', 'A']);
  });
});
