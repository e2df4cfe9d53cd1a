import { sqlFailure } from '../sql-failure.ts';

/** A position in a regular expression, read by code point, with the failure every rule shares. */
export class PatternCursor {
  index = 0;
  readonly characters: string[];

  constructor(readonly pattern: string) {
    this.characters = Array.from(pattern);
  }

  peek(): string | undefined {
    return this.characters[this.index];
  }

  next(): string | undefined {
    const character = this.characters[this.index];
    if (character !== undefined) this.index += 1;
    return character;
  }

  /** The next `length` characters as text, for matching a construct such as `{2,5}` or `(?i:`. */
  ahead(length: number): string {
    return this.characters.slice(this.index, this.index + length).join('');
  }

  atEnd(): boolean {
    return this.index >= this.characters.length;
  }

  fail(message: string): never {
    return sqlFailure(`Invalid Input Error: ${message} in the regular expression "${this.pattern}"`);
  }
}
