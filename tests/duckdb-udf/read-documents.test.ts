import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SragError } from '../../core/index.ts';
import { resolveDocuments } from '../../node/runtime/resolve-documents.ts';
import { readDocumentFile } from '../../node/runtime/read-document-file.ts';
import { buildDocx } from '../helpers/build-docx.ts';
import { buildPdf, type PdfText } from '../helpers/build-pdf.ts';
import { caught } from '../helpers/caught.ts';

const directory = mkdtempSync(join(tmpdir(), 'srag-read-documents-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function writeFixture(name: string, content: Uint8Array | string): string {
  const path = join(directory, name);
  writeFileSync(path, content);
  return path;
}

/** One table row drawn cell by cell at the given column positions, as report generators draw them. */
const tableRow = (cells: string[], columns: number[], y: number, bold = false): PdfText[] =>
  cells.flatMap((text, index) => (text === '' ? [] : [{ x: columns[index]!, y, text, bold }]));

async function unreadable(path: string): Promise<SragError> {
  const error = await caught(readDocumentFile(path));
  expect(SragError.isInstance(error)).toBe(true);
  expect((error as SragError).code).toBe('DOCUMENT_UNREADABLE');
  return error as SragError;
}

describe('reading PDF files', () => {
  it('keeps headings, paragraphs, page boundaries and a table with an empty cell as rows', async () => {
    const columns = [72, 200, 420];
    const path = writeFixture('stadiums.pdf', buildPdf([
      {
        texts: [
          { x: 72, y: 720, text: 'Stadiums of the 2022 World Cup', size: 18, bold: true },
          { x: 72, y: 690, text: 'Eight stadiums hosted the 64 matches; six were built for the tournament.' },
          ...tableRow(['City', 'Stadium', 'Capacity'], columns, 660, true),
          ...tableRow(['Lusail', 'Lusail Stadium', '88,966'], columns, 644),
          ...tableRow(['Al Rayyan', 'Khalifa International Stadium', '45,857'], columns, 628),
          ...tableRow(['', 'Education City Stadium', '44,667'], columns, 612),
          ...tableRow(['Al Wakrah', 'Al Janoub Stadium', '44,325'], columns, 596),
        ],
      },
      { texts: [{ x: 72, y: 720, text: 'Stadium 974 was taken down after the tournament – the first temporary venue.' }] },
    ]));
    expect(await readDocumentFile(path)).toBe([
      '--- page 1 ---',
      '',
      '# Stadiums of the 2022 World Cup',
      '',
      'Eight stadiums hosted the 64 matches; six were built for the tournament.',
      '',
      'City | Stadium | Capacity',
      'Lusail | Lusail Stadium | 88,966',
      'Al Rayyan | Khalifa International Stadium | 45,857',
      '| Education City Stadium | 44,667',
      'Al Wakrah | Al Janoub Stadium | 44,325',
      '',
      '--- page 2 ---',
      '',
      'Stadium 974 was taken down after the tournament – the first temporary venue.',
    ].join('\n'));
  });

  it('reads a PDF a browser printed (embedded subset fonts, ligatures, a bordered table) in reading order', async () => {
    const text = await readDocumentFile('tests/fixtures/office-documents/docs/harbour-view-hotel.pdf');
    expect(text).toBe(readFileSync('tests/fixtures/office-documents/harbour-view-hotel.expected.txt', 'utf8').trimEnd());
    expect(text).toContain('Standard double | 180 | USD 185.00');
    expect(text).toContain('rooms on eight floors');
    expect(text.split('\n').filter((line) => line.startsWith('--- page '))).toEqual(['--- page 1 ---', '--- page 2 ---']);
  });

  it('reports a scanned PDF without a text layer as that document\'s error, with the fix', async () => {
    const error = await unreadable(writeFixture('scan.pdf', buildPdf([{ scannedImage: true }, { scannedImage: true }])));
    expect(error.message).toMatch(/scan\.pdf has no text layer: OCR it first$/);
    expect(error.hint).toMatch(/OCR/);
  });

  it('marks the scanned pages of a PDF that has text on others, and keeps the text', async () => {
    const path = writeFixture('mixed.pdf', buildPdf([{ texts: [{ x: 72, y: 700, text: 'Signed on the next page.' }] }, { scannedImage: true }]));
    expect(await readDocumentFile(path)).toBe('--- page 1 ---\n\nSigned on the next page.\n\n--- page 2 (no text layer) ---');
  });

  it('reports a damaged PDF and a missing one in one line each', async () => {
    const damaged = await unreadable(writeFixture('damaged.pdf', '%PDF-1.7\nthis is not a PDF body\n'));
    expect(damaged.message).toMatch(/damaged\.pdf is not a readable PDF \(.+\)$/);
    expect(damaged.message).not.toContain('\n');
    const missing = await unreadable(join(directory, 'missing.pdf'));
    expect(missing.message).toMatch(/cannot read .*missing\.pdf \(ENOENT\)/);
  });

  it('chooses the reader by extension whatever its case', async () => {
    const path = writeFixture('REPORT.PDF', buildPdf([{ texts: [{ x: 72, y: 700, text: 'Upper-case name.' }] }]));
    expect(await readDocumentFile(path)).toBe('--- page 1 ---\n\nUpper-case name.');
  });
});

describe('reading Word files', () => {
  it('keeps headings as markdown lines and tables as rows, merged cells repeated in every row they span', async () => {
    const path = writeFixture('linden-court.docx', await buildDocx([
      { heading: 1, text: 'Linden Court Hotel' },
      { paragraph: 'Rua das Flores 8, Porto, Portugal' },
      { heading: 2, text: 'Rates' },
      { table: [
        ['Season', 'Room', 'Price per night'],
        [{ text: 'Summer', rowSpan: 2 }, 'Single room', 'USD 120.00'],
        ['Standard double', 'USD 150.00'],
        [{ text: 'Winter prices on request', columnSpan: 3 }],
      ] },
      { paragraph: 'General manager: Paulo Sousa' },
    ]));
    expect(await readDocumentFile(path)).toBe([
      '# Linden Court Hotel',
      '',
      'Rua das Flores 8, Porto, Portugal',
      '',
      '## Rates',
      '',
      'Season | Room | Price per night',
      'Summer | Single room | USD 120.00',
      'Summer | Standard double | USD 150.00',
      'Winter prices on request',
      '',
      'General manager: Paulo Sousa',
    ].join('\n'));
  });

  it('reports a damaged .docx and one without text as that document\'s errors', async () => {
    const damaged = await unreadable(writeFixture('damaged.docx', 'PK\u0003\u0004 not really a zip'));
    expect(damaged.message).toMatch(/damaged\.docx is not a readable \.docx file \(.+\)$/);
    const empty = await unreadable(writeFixture('empty.docx', await buildDocx([{ paragraph: '' }])));
    expect(empty.message).toMatch(/empty\.docx has no text$/);
  });
});

describe('reading text documents with one blocking read (srag_extract)', () => {
  it('gives the same text and the same one-line errors as the asynchronous read', async () => {
    const path = writeFixture('blocking.md', '# Alpha Hotel\n\nThree stars, in Oslo.\n');
    expect(await readDocumentFile(path, { blocking: true })).toBe(await readDocumentFile(path));
    for (const [name, make] of [['missing.txt', () => join(directory, 'missing.txt')], ['binary.txt', () => writeFixture('binary.txt', new Uint8Array([0x61, 0, 0x62]))]] as const) {
      const path = make();
      const blocking = await caught(readDocumentFile(path, { blocking: true }));
      expect(blocking, name).toMatchObject({ code: 'DOCUMENT_UNREADABLE' });
      expect((blocking as SragError).message).toBe(((await caught(readDocumentFile(path))) as SragError).message);
    }
  });
});

describe('resolveDocuments', () => {
  it('takes .pdf and .docx files along with the text formats, and skips other binaries', async () => {
    const folder = join(directory, 'mixed-folder');
    mkdirSync(folder);
    for (const name of ['a.pdf', 'b.DOCX', 'c.html', 'd.doc', 'e.png']) writeFileSync(join(folder, name), '');
    const { documents, skipped } = await resolveDocuments([folder]);
    expect(documents.map((document) => basename(document.source))).toEqual(['a.pdf', 'b.DOCX', 'c.html']);
    expect(skipped.map((path) => basename(path))).toEqual(['d.doc', 'e.png']);
  });
});
