/**
 * Document benchmark: `npm run bench:documents`
 *
 * 1. Splitting: the 22 World Cup pages (examples/worldcup/docs) cut for extraction at several input
 *    budgets, greedily (each part filled, as before) and balanced (the default): model calls, prompt
 *    tokens sent (each call repeats the instructions and schema), and the smallest part as a share
 *    of the largest one of the same document (1.0 = equal parts). The ideal number of calls for a
 *    document is ⌈its tokens ÷ the part budget⌉.
 * 2. Reading: milliseconds per page to read the Chromium-printed PDF fixture and per document for a
 *    generated .docx, as srag ingest reads them (median of several runs, this machine).
 * Prints tables; figures are measurements, not assertions.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { extractionParts, parseRecordSchemaText, splitDocument } from '../core/index.ts';
import { countTokens } from '../node/runtime/count-tokens.ts';
import { loadPromptLibrary } from '../node/runtime/load-prompt-library.ts';
import { readDocumentFile } from '../node/runtime/read-document-file.ts';
import { buildDocx } from '../tests/helpers/build-docx.ts';

const corpusDirectory = 'examples/worldcup/docs';
const budgets = [4_000, 8_000, 16_000, 24_000];

const prompts = loadPromptLibrary();
const schema = parseRecordSchemaText(readFileSync('examples/worldcup/schema.json', 'utf8'), 'examples/worldcup/schema.json');
const texts = readdirSync(corpusDirectory).filter((name) => name.endsWith('.txt')).sort()
  .map((name) => readFileSync(path.join(corpusDirectory, name), 'utf8'));

console.log(`Splitting ${texts.length} World Cup pages (${texts.reduce((sum, text) => sum + countTokens(text), 0).toLocaleString('en-US')} tokens)`);
console.log('input budget | part budget | ideal calls | greedy calls | balanced calls | greedy tokens sent | balanced tokens sent | greedy smallest/largest | balanced smallest/largest');
for (const maxInputTokens of budgets) {
  let partTokens = 0;
  let instructionTokens = 0;
  const totals = { ideal: 0, greedy: 0, balanced: 0, greedyTokens: 0, balancedTokens: 0 };
  const ratios = { greedy: [] as number[], balanced: [] as number[] };
  for (const text of texts) {
    const split = extractionParts({ prompts, schema, text, maxInputTokens, countTokens });
    ({ partTokens, instructionTokens } = split);
    const greedy = splitDocument(text, partTokens, countTokens, { balanced: false });
    totals.ideal += Math.ceil(countTokens(text) / partTokens);
    for (const [name, parts] of [['greedy', greedy], ['balanced', split.parts]] as const) {
      const sizes = parts.map((part) => countTokens(part));
      totals[name] += parts.length;
      totals[`${name}Tokens`] += sizes.reduce((sum, size) => sum + size, 0) + parts.length * instructionTokens;
      if (parts.length > 1) ratios[name].push(sizes.reduce((least, size) => Math.min(least, size), Infinity) / sizes.reduce((most, size) => Math.max(most, size), 0));
    }
  }
  const worst = (values: number[]) => (values.length ? values.reduce((least, value) => Math.min(least, value), Infinity).toFixed(2) : '—');
  const median = (values: number[]) => (values.length ? [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!.toFixed(2) : '—');
  console.log([
    maxInputTokens, partTokens, totals.ideal, totals.greedy, totals.balanced,
    totals.greedyTokens.toLocaleString('en-US'), totals.balancedTokens.toLocaleString('en-US'),
    `median ${median(ratios.greedy)}, worst ${worst(ratios.greedy)}`, `median ${median(ratios.balanced)}, worst ${worst(ratios.balanced)}`,
  ].join(' | '));
}

const medianMilliseconds = async (runs: number, work: () => Promise<unknown>): Promise<number> => {
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
};

const pdf = 'tests/fixtures/office-documents/docs/harbour-view-hotel.pdf';
await readDocumentFile(pdf);
const pdfPages = (await readDocumentFile(pdf)).split('\n').filter((line) => line.startsWith('--- page ')).length;
const pdfMilliseconds = await medianMilliseconds(20, () => readDocumentFile(pdf));
const directory = mkdtempSync(path.join(os.tmpdir(), 'srag-bench-documents-'));
const docx = path.join(directory, 'report.docx');
writeFileSync(docx, await buildDocx(Array.from({ length: 40 }, (_, index) => (index % 4 === 0
  ? { heading: 2 as const, text: `Section ${index / 4 + 1}` }
  : { paragraph: `Paragraph ${index}: the hotel had ${index * 7} guests and ${index % 9} complaints in the quarter.` }))));
await readDocumentFile(docx);
const docxMilliseconds = await medianMilliseconds(20, () => readDocumentFile(docx));
rmSync(directory, { recursive: true, force: true });
console.log(`\nReading (median of 20): PDF ${(pdfMilliseconds / pdfPages).toFixed(1)} ms per page (${pdfPages} pages), .docx ${docxMilliseconds.toFixed(1)} ms per document (40 blocks)`);
