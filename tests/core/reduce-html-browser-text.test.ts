import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reduceHtml } from '../../core/documents/index.ts';

/**
 * Pages whose text a browser shows although their markup is broken or absurdly deep, with what
 * headless Chromium shows of each (`document.body.innerText`), recorded by
 * tests/fixtures/browser-text/record-browser-text.ts.
 */
const record = JSON.parse(readFileSync(new URL('../fixtures/browser-text/browser-text.json', import.meta.url), 'utf8')) as {
  browser: string;
  pages: Array<{ name: string; html: string; innerText: string }>;
};

/**
 * The characters a reader sees, in order: srag writes cells as `a | b` where innerText has a tab,
 * and spaces lines differently, so separators and whitespace are left out of the comparison.
 */
const shownCharacters = (text: string) => text.replace(/[\s|]+/g, '');

describe(`reduceHtml keeps the text ${record.browser} shows`, () => {
  it.each(record.pages.map((page) => [page.name, page] as const))('%s', (_name, page) => {
    expect(shownCharacters(page.innerText)).not.toBe('');
    expect(shownCharacters(reduceHtml(page.html))).toBe(shownCharacters(page.innerText));
  });
});
