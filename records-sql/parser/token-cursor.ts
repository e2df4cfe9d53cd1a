import { SragError } from '../sql-engine-port.ts';
import type { SqlToken } from '../syntax/tokenize-sql.ts';
import { unsupportedFeature } from '../unsupported-feature.ts';

/**
 * A position in the token list of one statement, with the look-ahead and the failures every
 * grammar rule shares. Failures name the position (1-based, in characters), which is what the
 * repair round shows the model.
 */
export class TokenCursor {
  index = 0;

  constructor(readonly sql: string, private readonly tokens: SqlToken[]) {}

  peek(): SqlToken {
    return this.tokens[this.index]!;
  }

  /** The token `offset` places ahead (the end token past the last one). */
  lookAhead(offset: number): SqlToken {
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)]!;
  }

  /** The upper-cased word `offset` places ahead, or '' when that token is not a word. */
  upperAhead(offset = 0): string {
    const token = this.lookAhead(offset);
    return token.kind === 'word' ? token.upper : '';
  }

  next(): SqlToken {
    const token = this.tokens[this.index]!;
    if (token.kind !== 'end') this.index += 1;
    return token;
  }

  isWord(upper: string): boolean {
    const token = this.peek();
    return token.kind === 'word' && token.upper === upper;
  }

  isSymbol(text: string): boolean {
    const token = this.peek();
    return token.kind === 'symbol' && token.text === text;
  }

  acceptWord(upper: string): boolean {
    if (!this.isWord(upper)) return false;
    this.index += 1;
    return true;
  }

  acceptSymbol(text: string): boolean {
    if (!this.isSymbol(text)) return false;
    this.index += 1;
    return true;
  }

  expectWord(upper: string): void {
    if (!this.acceptWord(upper)) this.fail(`expected ${upper} but found "${describe(this.peek())}"`);
  }

  expectSymbol(text: string): void {
    if (!this.acceptSymbol(text)) this.fail(`expected "${text}" but found "${describe(this.peek())}"`);
  }

  /** A name, quoted or not; `what` says what was expected ("a table name"). */
  name(what: string): string {
    const token = this.next();
    if (token.kind === 'word' || token.kind === 'quotedName') return token.text;
    this.index -= token.kind === 'end' ? 0 : 1;
    return this.fail(`expected ${what} but found "${describe(token)}"`);
  }

  /** A syntax error at the current token. */
  fail(message: string): never {
    throw new SragError({ code: 'SQL_FAILED', message: `Parser Error: ${message} (at position ${this.peek().position + 1})` });
  }

  /** Valid DuckDB SQL outside the subset: the message sends the model back to the dialect notes. */
  unsupported(feature: string): never {
    return unsupportedFeature(feature);
  }
}

export function describe(token: SqlToken): string {
  return token.kind === 'end' ? 'end of input' : token.text;
}
