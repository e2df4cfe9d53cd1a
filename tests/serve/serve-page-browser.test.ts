import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type RunningServe } from '../../node/serve/start-serve.ts';
import { readGoldQuestions } from '../helpers/gold-questions.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';

const chromiumPath = '/usr/bin/chromium';
const skip = process.env.SRAG_SKIP_BROWSER === '1';
// Screenshots go to test-artifacts/ on every run; the README's copies in docs/images/ are refreshed
// only on request (SRAG_UPDATE_SCREENSHOTS=1), so a test run never dirties tracked files.
const screenshotDirectories = process.env.SRAG_UPDATE_SCREENSHOTS === '1' ? ['docs/images', 'test-artifacts'] : ['test-artifacts'];

let standIn: LlmStandIn;
let server: RunningServe;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

async function screenshot(name: string): Promise<void> {
  for (const directory of screenshotDirectories) {
    mkdirSync(directory, { recursive: true });
    await page.screenshot({ path: path.join(directory, name) });
  }
}

describe.skipIf(skip)('the srag serve page in headless Chromium', () => {
  beforeAll(async () => {
    if (!existsSync(chromiumPath)) {
      throw new Error(`Chromium is not installed at ${chromiumPath}: install it with \`apt-get update && apt-get install -y chromium\` (as root), or set SRAG_SKIP_BROWSER=1 to skip this test explicitly`);
    }
    standIn = await startLlmStandIn({ corpora: ['examples/hotels'] });
    const database = path.join(mkdtempSync(path.join(tmpdir(), 'srag-serve-page-')), 'page.duckdb');
    server = await startServe({
      db: database, port: 0, host: '127.0.0.1', directory: repositoryRoot,
      environment: { OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000', SRAG_CONCURRENCY: '8' },
    });
    browser = await chromium.launch({ executablePath: chromiumPath, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await standIn?.close();
  });

  it('ingests from the page, showing the job\'s progress until the records appear', async () => {
    await page.goto(`${server.url}/`);
    await expect.poll(() => page.textContent('#connection')).toContain('no table yet');
    await page.fill('#ingest-paths', 'examples/hotels/docs');
    await page.fill('#ingest-schema', 'examples/hotels/schema.json');
    await page.click('#ingest button');
    await expect.poll(() => page.textContent('#jobs'), { timeout: 100_000 }).toContain('hotels: done, 50/50 documents');
    await expect.poll(() => page.textContent('#records-count')).toBe('50 of 50');
    expect(await page.textContent('#schema')).toContain('price_per_night');
  }, 120_000);

  it('asks a question and shows the answer, its SQL and the result table', async () => {
    const question = readGoldQuestions('examples/hotels').find((candidate) => candidate.kind === 'avg')!;
    await page.fill('#question', question.question);
    await page.click('#ask button');
    await page.waitForSelector('#answer .answer', { timeout: 20_000 });
    expect(await page.textContent('#answer pre')).toBe(question.sql);
    const cell = await page.textContent('#result td');
    expect(Number(cell)).toBeCloseTo(Number(question.gold), 6);
    await screenshot('serve-ask.png');
  }, 30_000);

  it('opens the document of a clicked cell with the quote highlighted, and the raw value, status and reason beside it', async () => {
    const source = path.join(repositoryRoot, 'examples/hotels/docs/amber-arch-hotel.md');
    const cell = page.locator(`#records td.value[data-source="${source}"][data-attribute="price_per_night"]`);
    await cell.scrollIntoViewIfNeeded();
    await cell.click();
    await page.waitForSelector('#document-text mark', { timeout: 10_000 });
    const facts = await page.textContent('#evidence dl');
    expect(facts).toContain('model returned');
    expect(facts).toContain('statussupported');
    const quote = await page.locator('#evidence dd').nth(4).textContent();
    const highlighted = (await page.locator('#document-text mark').allTextContents()).join(' ');
    const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    expect(words(highlighted)).toEqual(words(quote!));
    expect(await page.textContent('#evidence')).toContain('amber-arch-hotel.md');
    await screenshot('serve-evidence.png');
    expect(pageErrors).toEqual([]);
  }, 20_000);
});
