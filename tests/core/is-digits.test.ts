import { describe, expect, it } from 'vitest';
import { isDigits } from '../../core/text/is-digits.ts';

describe('isDigits', () => {
  it('says what /^\\d{fewest,most}$/ says of every text, ASCII digits only', () => {
    const texts = ['', '0', '7', '12', '123', '2024', '20245', '१२', '１２', '1a', 'a1', ' 12', '12 ', '1.5', '-12', '٣'];
    for (const [fewest, most] of [[1, 2], [4, 4], [1, 4]] as const) {
      const pattern = new RegExp(`^\\d{${fewest},${most}}$`);
      for (const text of texts) expect([text, fewest, most, isDigits(text, fewest, most)]).toEqual([text, fewest, most, pattern.test(text)]);
    }
  });
});
