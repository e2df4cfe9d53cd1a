import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseJsonText } from '../../core/index.ts';

afterEach(() => vi.restoreAllMocks());

describe('parseJsonText', () => {
  it('says what JSON.parse said without the " (line N column M)" V8 12 and later add, so the one-line error holds no nested parentheses', () => {
    // The message Node 22.23.5 and 24.22.3 give for `{"hotel_name": "Lido",` (Node 20 stops at "position 22").
    vi.spyOn(JSON, 'parse').mockImplementation(() => {
      throw new SyntaxError('Expected double-quoted property name in JSON at position 22 (line 1 column 23)');
    });
    expect(parseJsonText('{"hotel_name": "Lido",')).toEqual({ ok: false, problem: 'the reply is not valid JSON: Expected double-quoted property name in JSON at position 22' });
  });

  it('keeps the message of this Node\'s own JSON.parse, less its "is not valid JSON" ending', () => {
    expect(parseJsonText('Sure! Here is')).toEqual({ ok: false, problem: 'the reply is not valid JSON: Unexpected token \'S\', "Sure! Here is"' });
  });
});
