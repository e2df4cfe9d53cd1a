/**
 * Bounds on reading one document: `npm run bench:document-bounds [-- --pages 1000,2000,4000,8000,16000] [--flat-up-to 8000] [--unbounded]`
 *
 * 1. PDF pages: CPU of this process to read a PDF whose page tree lists every page at its root (as
 *    many generators write it), as srag reads it (the tree balanced first) and, up to --flat-up-to
 *    pages, through pdf.js with the tree left flat (how srag read it before), per page; and what
 *    refusing a PDF of 100,000 pages costs at the default SRAG_MAX_PAGES.
 * 2. Bombs: what refusing each costs (CPU, and the growth of the process's resident memory): a .docx
 *    whose document.xml inflates to 1 GB, declared and undeclared, and a PDF whose content stream
 *    does. With --unbounded, also what opening the .docx bomb costs without the bound, in a child
 *    process (mammoth as srag called it before), by its peak resident memory.
 * 3. Nesting: CPU to make the text of HTML and JSON nested thousands deep (the call stack's end before).
 * Prints tables; figures are measurements of this machine, not assertions.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { constants, deflateRawSync } from 'node:zlib';
import { documentText, pdfPagesText, type PdfTextRun } from '../core/index.ts';
import { readDocumentFile } from '../node/runtime/read-document-file.ts';
import { minimalDocxParts, wordDocumentXml } from '../tests/helpers/build-docx.ts';
import { buildPdf } from '../tests/helpers/build-pdf.ts';
import { buildZip } from '../tests/helpers/build-zip.ts';

const { values: options } = parseArgs({
  options: {
    pages: { type: 'string', default: '1000,2000,4000,8000,16000' },
    'flat-up-to': { type: 'string', default: '8000' },
    unbounded: { type: 'boolean', default: false },
  },
});
const directory = mkdtempSync(path.join(os.tmpdir(), 'srag-bench-document-bounds-'));
const limits = { maxPages: 1_000_000, readTimeoutMilliseconds: 3_600_000 };

/** CPU milliseconds of this process (all its threads) spent in `work`, with its result. */
async function cpu<T>(work: () => Promise<T>): Promise<{ milliseconds: number; result: T }> {
  const start = process.cpuUsage();
  const result = await work();
  const used = process.cpuUsage(start);
  return { milliseconds: (used.user + used.system) / 1000, result };
}

const megabytes = (bytes: number) => `${Math.round(bytes / 1_048_576)} MB`;

try {
  console.log('PDF pages (a flat page tree) | srag: CPU ms | ms per page | tree left flat: CPU ms | ms per page');
  // Load pdf.js once, so that the first size does not pay for it.
  await readDocumentFile(writePdf(1), { limits });
  for (const pages of options.pages.split(',').map(Number)) {
    const file = writePdf(pages);
    const balanced = await cpu(() => readDocumentFile(file, { limits }));
    const flat = pages <= Number(options['flat-up-to']) ? await cpu(() => readFlat(file)) : undefined;
    if (flat && flat.result !== balanced.result) throw new Error(`the text of ${pages} pages differs with the tree left flat`);
    const perPage = (milliseconds: number) => (milliseconds / pages).toFixed(2);
    console.log(`${pages} | ${Math.round(balanced.milliseconds)} | ${perPage(balanced.milliseconds)} | ${flat ? Math.round(flat.milliseconds) : '—'} | ${flat ? perPage(flat.milliseconds) : '—'}`);
  }

  const longest = 100_000;
  const longFile = writePdf(longest);
  const refusedLong = await cpu(() => readDocumentFile(longFile, { shownAs: `flat-${longest}.pdf` }).then(() => 'read', (error: Error) => error.message));
  console.log(`${longest} at the default SRAG_MAX_PAGES | refused in ${Math.round(refusedLong.milliseconds)} CPU ms | ${refusedLong.result}`);

  console.log('\nbomb | file size | inflates to | refused in (CPU ms) | resident memory grew by | reason');
  const gigabyte = 1024 * 1_048_576;
  const bombs = [
    { name: 'docx-declared.docx', bytes: docxBomb(gigabyte, true) },
    { name: 'docx-undeclared.docx', bytes: docxBomb(gigabyte, false) },
    { name: 'pdf-content.pdf', bytes: pdfBomb(gigabyte) },
  ];
  for (const { name, bytes } of bombs) {
    const file = path.join(directory, name);
    writeFileSync(file, bytes);
    const residentBefore = process.memoryUsage().rss;
    const refused = await cpu(() => readDocumentFile(file, { limits, shownAs: name }).then(() => 'read', (error: Error) => error.message));
    console.log(`${name} | ${megabytes(bytes.length)} | ${megabytes(gigabyte)} | ${Math.round(refused.milliseconds)} | ${megabytes(process.memoryUsage().rss - residentBefore)} | ${refused.result}`);
  }
  if (options.unbounded) {
    // mammoth over the bomb, as srag called it before the bound, in a process of its own.
    const script = `const mammoth = require('mammoth'); const start = process.cpuUsage();
      mammoth.convertToHtml({ path: ${JSON.stringify(path.join(directory, 'docx-declared.docx'))} })
        .then(() => 'read', (error) => String(error.message).slice(0, 80))
        .then((outcome) => { const used = process.cpuUsage(start); console.log(JSON.stringify({ outcome, cpu: (used.user + used.system) / 1000, peak: process.resourceUsage().maxRSS * 1024 })); });`;
    const child = JSON.parse(execFileSync(process.execPath, ['--max-old-space-size=8192', '-e', script], { encoding: 'utf8' })) as { outcome: string; cpu: number; peak: number };
    console.log(`unbounded: mammoth over docx-declared.docx | ${Math.round(child.cpu)} CPU ms | peak resident memory ${megabytes(child.peak)} | ${child.outcome}`);
  }

  console.log('\nnested document | size | CPU ms to make its text | text characters');
  const nested = [
    { name: 'HTML, 5,000 divs deep', file: 'nested.html', text: `${'<div>'.repeat(5000)}deep${'</div>'.repeat(5000)}` },
    { name: 'HTML, 100,000 divs deep', file: 'nested.html', text: `${'<div>'.repeat(100_000)}deep${'</div>'.repeat(100_000)}` },
    { name: 'JSON, 3,000 arrays deep', file: 'nested.json', text: `${'['.repeat(3000)}1${']'.repeat(3000)}` },
    { name: 'JSON, 100,000 objects deep', file: 'nested.json', text: `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}` },
  ];
  for (const { name, file, text } of nested) {
    const made = await cpu(async () => documentText(file, text));
    console.log(`${name} | ${Math.round(text.length / 1024)} KB | ${Math.round(made.milliseconds)} | ${made.result.length}`);
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}

function writePdf(pages: number): string {
  const file = path.join(directory, `flat-${pages}.pdf`);
  writeFileSync(file, buildPdf(Array.from({ length: pages }, (_, index) => ({
    texts: [{ x: 72, y: 720, text: `Section ${index + 1}`, size: 16 }, { x: 72, y: 690, text: `Body text of page ${index + 1}, with a few more words.` }],
  }))));
  return file;
}

/** What srag's PDF reader did before: pdf.js over the file as it is, page by page, laid out the same way. */
async function readFlat(file: string): Promise<string> {
  const { readFileSync } = await import('node:fs');
  const { getDocumentProxy } = await import('unpdf');
  const pdf = await getDocumentProxy(new Uint8Array(readFileSync(file)), { isEvalSupported: false, stopAtErrors: false, verbosity: 0 });
  const pages: PdfTextRun[][] = [];
  for (let number = 1; number <= pdf.numPages; number += 1) {
    const page = await pdf.getPage(number);
    const content = await page.getTextContent();
    pages.push(content.items.flatMap((item) => ('str' in item ? [{ text: item.str, x: item.transform[4]!, y: item.transform[5]!, width: item.width, fontSize: Math.hypot(item.transform[2]!, item.transform[3]!) }] : [])));
    page.cleanup();
  }
  await pdf.destroy();
  return pdfPagesText(pages);
}

/**
 * Raw deflate of `head`, `total` bytes of `A`, then `tail`, without compressing a gigabyte: a
 * megabyte deflated with a sync flush (its blocks end on a byte and refer to nothing before them) is
 * repeated, and a final block closes the stream.
 */
function deflatedRun(head: string, total: number, tail: string): Buffer {
  const flushed = (data: Buffer) => deflateRawSync(data, { finishFlush: constants.Z_SYNC_FLUSH });
  const repeated = flushed(Buffer.alloc(1_048_576, 0x41));
  const parts = [flushed(Buffer.from(head))];
  for (let written = 0; written < total; written += 1_048_576) parts.push(repeated);
  parts.push(deflateRawSync(Buffer.from(tail)));
  return Buffer.concat(parts);
}

/** A .docx whose document.xml is one paragraph of `size` letters; its zip says so, or says 1 KB. */
function docxBomb(size: number, declared: boolean): Buffer {
  const [head, tail] = wordDocumentXml('<w:p><w:r><w:t>\u0000</w:t></w:r></w:p>').split('\u0000') as [string, string];
  const deflated = deflatedRun(head, size, tail);
  return buildZip(minimalDocxParts({ deflated, declaredSize: declared ? head.length + size + tail.length : 1024 }));
}

/** A one-page PDF whose content stream draws one line, then holds a comment `size` letters long. */
function pdfBomb(size: number): Buffer {
  const deflated = deflatedRun('BT /F1 11 Tf 72 700 Td (Bomb) Tj ET\n%', size, '\n');
  const stream = Buffer.concat([Buffer.from([0x78, 0x9c]), deflated, Buffer.alloc(4)]);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    null,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((body, index) => {
    offsets.push(length);
    const part = body === null
      ? Buffer.concat([Buffer.from(`${index + 1} 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'), stream, Buffer.from('\nendstream\nendobj\n', 'latin1')])
      : Buffer.from(`${index + 1} 0 obj\n${body}\nendobj\n`, 'latin1');
    parts.push(part);
    length += part.length;
  });
  const table = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  parts.push(Buffer.from(`${table}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}
