import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocx } from '../helpers/build-docx.ts';
import { buildPdf } from '../helpers/build-pdf.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { runSragInProcess } from '../helpers/run-srag-in-process.ts';
import { runSrag } from '../helpers/run-srag.ts';

const corpus = 'tests/fixtures/office-documents';
const workDirectory = mkdtempSync(join(tmpdir(), 'srag-office-'));
const documents = join(workDirectory, 'docs');
const database = join(workDirectory, 'office.duckdb');
let standIn: LlmStandIn;
const environment = () => ({ OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000' });

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: [corpus] });
  mkdirSync(documents);
  copyFileSync(join(corpus, 'docs/harbour-view-hotel.pdf'), join(documents, 'harbour-view-hotel.pdf'));
  writeFileSync(join(documents, 'linden-court-hotel.docx'), await buildDocx([
    { heading: 1, text: 'Linden Court Hotel' },
    { paragraph: 'Rua das Flores 8, Porto, Portugal' },
    { heading: 2, text: 'Overview' },
    { paragraph: 'Linden Court Hotel is a 3-star hotel in Porto with 64 rooms. There is no swimming pool.' },
    { heading: 2, text: 'Rates' },
    { table: [
      ['Season', 'Room', 'Price per night'],
      [{ text: 'Summer', rowSpan: 2 }, 'Single room', 'USD 120.00'],
      ['Standard double', 'USD 150.00'],
      ['Winter', 'Standard double', 'USD 110.00'],
    ] },
    { paragraph: 'General manager: Paulo Sousa' },
  ]));
  writeFileSync(join(documents, 'scanned-brochure.pdf'), buildPdf([{ scannedImage: true }, { scannedImage: true }]));
});
afterAll(async () => {
  await standIn.close();
  rmSync(workDirectory, { recursive: true, force: true });
});

describe('srag over a PDF and a Word file', () => {
  it('ingests both, reports the scanned PDF without sending it, and reads table cells into the right columns', async () => {
    const ingest = await runSragInProcess(['ingest', documents, '--schema', join(corpus, 'schema.json'), '--db', database], { environment: environment() });
    expect(ingest.status).toBe(1);
    expect(ingest.stdout).toMatch(/^hotels: 2 done, 1 failed/);
    expect(ingest.stderr).toMatch(/failed: .*scanned-brochure\.pdf: .*scanned-brochure\.pdf has no text layer: OCR it first/);
    // The two readable documents share one call; the scanned one is never sent.
    expect(standIn.countByKind()).toEqual({ 'extract-record-batch': 1 });

    const rows = await runSragInProcess(['sql', '--db', database, '--json', '-c',
      'SELECT hotel_name, city, star_rating, price_per_night, total_rooms, has_pool, manager_name FROM hotels ORDER BY hotel_name']);
    expect(rows.status, rows.stderr).toBe(0);
    expect(JSON.parse(rows.stdout).rows).toEqual([
      ['Harbour View Hotel', 'Lisbon', 4, 185, 240, true, 'Inês Duarte'],
      ['Linden Court Hotel', 'Porto', 3, 150, 64, false, 'Paulo Sousa'],
    ]);
  });

  it('names the page of the PDF a value was read from', async () => {
    const why = await runSragInProcess(['why', 'harbour-view-hotel.pdf', 'manager_name', '--db', database]);
    expect(why.status, why.stderr).toBe(0);
    expect(why.stdout).toContain('quote: “General manager: Inês Duarte” (page 2)');
    const firstPage = await runSragInProcess(['why', 'harbour-view-hotel.pdf', 'price_per_night', '--db', database]);
    expect(firstPage.stdout).toContain('quote: “Standard double | 180 | USD 185.00” (page 1)');
  });

  it('prints with srag text --parts exactly the message the model was sent for the PDF', async () => {
    standIn.reset();
    const pdf = join(documents, 'harbour-view-hotel.pdf');
    const text = await runSragInProcess(['text', pdf, '--parts', '--db', database]);
    expect(text.status, text.stderr).toBe(0);
    const [header, , partLine, ...message] = text.stdout.trimEnd().split('\n');
    expect(header).toMatch(/harbour-view-hotel\.pdf: 1 part; a part may hold [\d,]+ tokens \(input budget 24,000 less [\d,]+ for the instructions and schema/);
    expect(partLine).toMatch(/^── part 1 of 1 · \d+ tokens ──$/);

    const reingest = await runSragInProcess(['ingest', pdf, '--schema', join(corpus, 'schema.json'), '--db', join(workDirectory, 'again.duckdb')], { environment: environment() });
    expect(reingest.status, reingest.stderr).toBe(0);
    const sent = standIn.requests.find((request) => request.kind === 'extract-record')!.body.messages[1].content;
    expect(message.join('\n')).toBe(sent);
  });

  it('splits a long document into balanced parts and says how many tokens each holds', async () => {
    const pages = Array.from({ length: 12 }, (_, page) => ({
      texts: Array.from({ length: 40 }, (_, line) => ({ x: 72, y: 740 - line * 16, text: `Page ${page + 1}, line ${line + 1}: occupancy was ${(page * 40 + line) % 97} percent that week.` })),
    }));
    const long = join(workDirectory, 'long-report.pdf');
    writeFileSync(long, buildPdf(pages));
    const text = await runSragInProcess(['text', long, '--parts', '--schema', join(corpus, 'schema.json'), '--db', database], { environment: { SRAG_MAX_INPUT_TOKENS: '4000' } });
    expect(text.status, text.stderr).toBe(0);
    const sizes = [...text.stdout.matchAll(/^── part (\d+) of (\d+) · ([\d,]+) tokens ──$/gm)].map((match) => Number(match[3]!.replace(/,/g, '')));
    expect(sizes.length).toBeGreaterThanOrEqual(3);
    const share = sizes.reduce((sum, size) => sum + size, 0) / sizes.length;
    for (const size of sizes) expect(Math.abs(size - share) / share).toBeLessThan(0.2);
    expect(text.stdout).toContain(`<document part="1" of="${sizes.length}">\n--- page 1 ---`);
  });

  it('prints the plain reduced text without --parts, and one line with the fix for a scan', async () => {
    const docx = await runSragInProcess(['text', join(documents, 'linden-court-hotel.docx')]);
    expect(docx.stdout).toContain('# Linden Court Hotel\n');
    expect(docx.stdout).toContain('Summer | Standard double | USD 150.00\n');
    const scan = await runSrag(['text', join(documents, 'scanned-brochure.pdf')]);
    expect(scan.status).toBe(2);
    expect(scan.stderr.trim().split('\n')).toHaveLength(1);
    expect(scan.stderr).toMatch(/has no text layer: OCR it first — .*ocrmypdf/);
  });
});
