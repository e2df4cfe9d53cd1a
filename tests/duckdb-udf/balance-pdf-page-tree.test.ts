import { getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { balancePdfPageTree } from '../../node/runtime/documents/balance-pdf-page-tree.ts';
import { buildPdf, type PdfBuildOptions } from '../helpers/build-pdf.ts';

/** Pages each with one line that names it, all listed by the page tree's root (a flat tree). */
const flatPdf = (pages: number, options: PdfBuildOptions = {}) =>
  buildPdf(Array.from({ length: pages }, (_, index) => ({ texts: [{ x: 72, y: 700, text: `Page ${index + 1} of the report.` }] })), options);

/** Pages at the ends of the tree's groups of 32 and in between, and the last. */
const sampled = [1, 2, 32, 33, 64, 65, 150, 256, 257, 299, 300];

/** The page count pdf.js reads, and what it reads of the sampled pages: text and page box. */
async function pdfJsPages(bytes: Uint8Array): Promise<{ count: number; pages: Array<{ text: string; view: number[] }> }> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, verbosity: 0 });
  try {
    const pages = [];
    for (const number of sampled) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      pages.push({ text: content.items.map((item) => ('str' in item ? item.str : '')).join(''), view: [...page.view] });
      page.cleanup();
    }
    return { count: pdf.numPages, pages };
  } finally {
    await pdf.destroy();
  }
}

/** The `/Kids` arrays of the update appended to a PDF, as numbers of kids. */
function kidsInUpdate(original: Uint8Array, balanced: Uint8Array): number[] {
  const update = Buffer.from(balanced.subarray(original.length)).toString('latin1');
  return [...update.matchAll(/\/Kids \[([^\]]*)\]/g)].map((match) => match[1]!.trim().split(/\s+/).length / 3);
}

describe('balancePdfPageTree', () => {
  it.each(['table', 'stream'] as const)('balances a flat tree of 300 pages behind a cross-reference %s, each page read as before', async (crossReference) => {
    const original = flatPdf(300, { crossReference, inheritedMediaBox: true });
    const { bytes: balanced, pageCount } = balancePdfPageTree(original);
    expect(pageCount).toBe(300);
    expect(balanced.length).toBeGreaterThan(original.length);
    // The root keeps its entries; every node of the new levels holds at most 32 kids.
    const kids = kidsInUpdate(original, balanced);
    expect(kids.length).toBeGreaterThan(1);
    expect(Math.max(...kids)).toBeLessThanOrEqual(32);
    const before = await pdfJsPages(original);
    const after = await pdfJsPages(balanced);
    expect(after).toEqual(before);
    expect(after.count).toBe(300);
    // The order of the pages, and the page size every page inherits from the root.
    expect(after.pages.map((page) => page.text)).toEqual(sampled.map((number) => `Page ${number} of the report.`));
    expect(after.pages.every((page) => page.view.join() === '0,0,612,792')).toBe(true);
  });

  it('leaves a short document, one of more pages than will be read, and a file it cannot read as they are', () => {
    const short = flatPdf(20);
    expect(balancePdfPageTree(short)).toEqual({ bytes: short, pageCount: 20 });
    const long = flatPdf(300);
    expect(balancePdfPageTree(long, { mostPages: 299 })).toEqual({ bytes: long, pageCount: 300 });
    const damaged = new TextEncoder().encode('%PDF-1.7\nnot a body\nstartxref\n9\n%%EOF\n');
    expect(balancePdfPageTree(damaged)).toEqual({ bytes: damaged, pageCount: undefined });
    const truncated = long.subarray(0, long.length - 200);
    expect(balancePdfPageTree(truncated).bytes).toBe(truncated);
  });
});
