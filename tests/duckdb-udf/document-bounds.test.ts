import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { SragError } from '../../core/index.ts';
import { checkPdfInflation } from '../../node/runtime/documents/check-pdf-inflation.ts';
import { checkZipInflation } from '../../node/runtime/documents/check-zip-inflation.ts';
import { ReadingDeadline } from '../../node/runtime/documents/reading-deadline.ts';
import { readDocumentFile } from '../../node/runtime/read-document-file.ts';
import { readSettings } from '../../node/runtime/read-settings.ts';
import { minimalDocxParts } from '../helpers/build-docx.ts';
import { buildPdf } from '../helpers/build-pdf.ts';
import { buildZip, deflatedZeros } from '../helpers/build-zip.ts';
import { caught } from '../helpers/caught.ts';

const directory = mkdtempSync(join(tmpdir(), 'srag-document-bounds-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());

function writeFixture(name: string, content: Uint8Array | string): string {
  const path = join(directory, name);
  writeFileSync(path, content);
  return path;
}

async function unreadable(promise: Promise<unknown>): Promise<SragError> {
  const error = await caught(promise);
  expect(SragError.isInstance(error), String(error)).toBe(true);
  expect((error as SragError).code).toBe('DOCUMENT_UNREADABLE');
  expect((error as SragError).message).not.toContain('\n');
  return error as SragError;
}

const megabyte = 1_048_576;

describe('a Word file that inflates past what srag opens', () => {
  it('is refused from the sizes it declares, before anything is inflated', async () => {
    const path = writeFixture('declared-bomb.docx', buildZip(minimalDocxParts({ deflated: deflatedZeros(1024), declaredSize: 1024 * megabyte })));
    const error = await unreadable(readDocumentFile(path, { shownAs: 'declared-bomb.docx' }));
    expect(error.message).toBe('declared-bomb.docx inflates to 1,024 MB when opened, more than the 16 MB srag opens of one document');
    expect(error.hint).toMatch(/compression bomb/);
  });

  it('is refused once a part inflates past the size it declares, after that many bytes', async () => {
    // 8 MB of zeros in 8 KB, declared as 200 bytes: a reader trusting the header would inflate all of it.
    const path = writeFixture('lying-bomb.docx', buildZip(minimalDocxParts({ deflated: deflatedZeros(8 * megabyte), declaredSize: 200 })));
    const error = await unreadable(readDocumentFile(path, { shownAs: 'lying-bomb.docx' }));
    expect(error.message).toBe('lying-bomb.docx is damaged or hostile: its part word/document.xml inflates to more than the 200 bytes it declares');
  });

  it('is read whatever the size of its images, which srag never opens', async () => {
    const image = { name: 'word/media/image1.png', deflated: deflatedZeros(1024), declaredSize: 2000 * megabyte };
    const path = writeFixture('large-image.docx', buildZip([...minimalDocxParts(), image]));
    expect(await readDocumentFile(path)).toBe('Harbour View Hotel');
  });

  it('is checked part by part against a given allowance, skipped parts aside', () => {
    const archive = new Uint8Array(buildZip([{ name: 'a.xml', content: 'x'.repeat(3000) }, { name: 'b.xml', content: 'y'.repeat(3000) }]));
    expect(() => checkZipInflation(archive, { label: 'two.zip', maximumBytes: 6000 })).not.toThrow();
    expect(() => checkZipInflation(archive, { label: 'two.zip', maximumBytes: 5999 })).toThrow(/two\.zip inflates to/);
    expect(() => checkZipInflation(archive, { label: 'two.zip', maximumBytes: 5999, skip: (name) => name === 'b.xml' })).not.toThrow();
  });
});

/** A PDF body holding one stream object with `dictionary` and `data` (checkPdfInflation reads no more). */
function pdfWithStream(dictionary: string, data: Uint8Array): Uint8Array {
  const head = Buffer.from(`%PDF-1.7\n4 0 obj\n<< ${dictionary} /Length ${data.length} >>\nstream\n`, 'latin1');
  return Buffer.concat([head, data, Buffer.from('\nendstream\nendobj\n%%EOF\n', 'latin1')]);
}

describe('a PDF whose streams inflate past what srag opens', () => {
  const allowance = 4 * megabyte;
  const bomb = deflateSync(Buffer.alloc(8 * megabyte));

  it('is refused after the allowance is inflated, whether its Flate is one deep or nested', () => {
    const single = pdfWithStream('/Filter /FlateDecode', bomb);
    expect(() => checkPdfInflation(single, { label: 'bomb.pdf', maximumBytes: allowance }))
      .toThrow('bomb.pdf inflates to more than 4 MB when opened, the most srag opens of one document');
    const nested = pdfWithStream('/Filter [/FlateDecode /FlateDecode]', deflateSync(bomb));
    expect(() => checkPdfInflation(nested, { label: 'nested.pdf', maximumBytes: allowance })).toThrow(/nested\.pdf inflates to more than 4 MB/);
  });

  it('leaves images out, which pdf.js does not decode for text, and counts streams within the allowance', () => {
    expect(() => checkPdfInflation(pdfWithStream('/Type /XObject /Subtype /Image /Filter /FlateDecode', bomb), { label: 'scan.pdf', maximumBytes: allowance })).not.toThrow();
    expect(() => checkPdfInflation(pdfWithStream('/Filter /FlateDecode', deflateSync(Buffer.alloc(allowance))), { label: 'fits.pdf', maximumBytes: allowance })).not.toThrow();
  });
});

describe('a PDF of more pages than SRAG_MAX_PAGES', () => {
  const threePages = () => writeFixture('three-pages.pdf', buildPdf([1, 2, 3].map((page) => ({ texts: [{ x: 72, y: 700, text: `Page ${page}.` }] }))));

  it('is refused before any page is read, with the fix', async () => {
    const path = threePages();
    const error = await unreadable(readDocumentFile(path, { shownAs: 'three-pages.pdf', limits: { maxPages: 2, readTimeoutMilliseconds: 60_000 } }));
    expect(error.message).toBe('three-pages.pdf has 3 pages, more than the 2 srag reads of one document');
    expect(error.hint).toMatch(/split it .* or raise SRAG_MAX_PAGES/);
    expect(await readDocumentFile(path, { limits: { maxPages: 3, readTimeoutMilliseconds: 60_000 } })).toContain('Page 3.');
  });

  it('takes the limit from the environment when the caller gives none', async () => {
    vi.stubEnv('SRAG_MAX_PAGES', '2');
    expect((await unreadable(readDocumentFile(threePages()))).message).toMatch(/has 3 pages, more than the 2 srag reads/);
  });
});

describe('the reading time of one document', () => {
  it('gives up a PDF still being read after SRAG_READ_TIMEOUT_MS, saying how far it got', async () => {
    const path = writeFixture('slow.pdf', buildPdf([1, 2, 3].map((page) => ({ texts: [{ x: 72, y: 700, text: `Page ${page}.` }] }))));
    const error = await unreadable(readDocumentFile(path, { shownAs: 'slow.pdf', limits: { maxPages: 5000, readTimeoutMilliseconds: 1 } }));
    expect(error.message).toMatch(/^slow\.pdf took more than 0\.001 s to read \(stopped at page [1-3] of 3\)$/);
    expect(error.hint).toMatch(/SRAG_READ_TIMEOUT_MS/);
  });

  it('is checked between steps, and a step that gives the thread back is raced against it', async () => {
    let now = 0;
    const deadline = new ReadingDeadline('report.docx', 5_000, () => now);
    now = 5_000;
    expect(() => deadline.check()).not.toThrow();
    now = 5_001;
    expect(() => deadline.check('stopped at page 2 of 9')).toThrow('report.docx took more than 5 s to read (stopped at page 2 of 9)');
    const racing = new ReadingDeadline('stuck.docx', 20);
    const error = await caught(racing.race(new Promise(() => {})));
    expect((error as SragError).message).toBe('stuck.docx took more than 0.02 s to read');
    expect(await new ReadingDeadline('quick.docx', 60_000).race(Promise.resolve('text'))).toBe('text');
  });
});

describe('document reading settings', () => {
  it('stop a run that reads its settings before any document when one is not a positive whole number', () => {
    for (const [name, value] of [['SRAG_MAX_PAGES', '0'], ['SRAG_READ_TIMEOUT_MS', 'a minute']] as const) {
      const error = (() => { try { readSettings({ [name]: value }); } catch (thrown) { return thrown; } })();
      expect(error, name).toMatchObject({ code: 'INPUT_INVALID', message: `${name}=${JSON.stringify(value)} is not a positive whole number` });
    }
    expect(readSettings({}).documentReading).toEqual({ maxPages: 5000, readTimeoutMilliseconds: 60_000 });
  });
});
