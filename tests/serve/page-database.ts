import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';
import { askCommand } from '../../node/cli/ask-command.ts';
import { importCommand } from '../../node/cli/import-command.ts';
import { ingestCommand } from '../../node/cli/ingest-command.ts';
import { openSqlSession } from '../../node/sql-functions/harness/sql-session.ts';
import { averageParisPrice, hotelsWithGaps, pagesWithMisreadPrice } from '../helpers/hotels-with-gaps.ts';
import type { LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { runCommandInProcess } from '../helpers/run-command-in-process.ts';

/** The corpora the stand-in answers for the page's database. */
export function pageCorpora(hotels: { directory: string }): string[] {
  // page-questions: a series over the World Cup years, for the line chart (the examples' questions have none).
  return [hotels.directory, 'examples/worldcup', 'examples/guesthouses', 'examples/cities', 'tests/serve/page-questions'];
}

/** Questions that name no table, each answered from other tables: the page must choose them as the CLI does. */
export const pageQuestions = {
  spain: 'How many hotels are in Spain?',
  parisPrice: averageParisPrice,
  bigCities: 'How many hotels are in cities with a population over 2 million?',
  roomsPerStar: 'How many rooms are listed per star rating?',
  worldCups: 'How many World Cups had 32 teams?',
  doubleRoom: 'What is the average price per night of a Double Room?',
  goalsByYear: 'How many goals were scored at each World Cup, year by year?',
} as const;

export interface PageDatabase {
  database: string;
  /** `srag ask --json` for each of `pageQuestions`, asked before the server opened the file. */
  cliAnswers: Record<keyof typeof pageQuestions, Record<string, unknown>>;
}

/**
 * The README's multi-table database, built in this process: the hotels sample with gaps (three
 * Paris pages state no price, two have it misread, so it is dropped), the guesthouses with their
 * rooms (a child table), the World Cup tournaments made by
 * `CREATE TABLE … AS SELECT * FROM srag_extract(…)`, and cities imported from CSV. Then the CLI's
 * answers to `pageQuestions`, to hold the page to.
 */
export async function buildPageDatabase(standIn: LlmStandIn, hotels: ReturnType<typeof hotelsWithGaps>): Promise<PageDatabase> {
  const database = join(mkdtempSync(join(tmpdir(), 'srag-serve-page-')), 'page.duckdb');
  const environment = { OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000', SRAG_CONCURRENCY: '8' };
  for (const [name, value] of Object.entries(environment)) vi.stubEnv(name, value);
  try {
    const ingest = async (documents: string[], schema: string) => {
      const run = await runCommandInProcess((signal) => ingestCommand(documents, { schema, db: database, evidence: true }, signal));
      if (run.status !== 0) throw new Error(`ingest of ${documents[0]} failed: ${run.stderr}`);
    };
    const careful = readdirSync(hotels.docs).filter((page) => !pagesWithMisreadPrice.includes(page)).map((page) => join(hotels.docs, page));
    await ingest(careful, 'examples/hotels/schema.json');
    standIn.setOptions({ slips: ['misread-values'], slipProperties: ['price_per_night'] });
    await ingest(pagesWithMisreadPrice.map((page) => join(hotels.docs, page)), 'examples/hotels/schema.json');
    standIn.setOptions({ slips: [], slipProperties: [] });
    await ingest(['examples/guesthouses/docs'], 'examples/guesthouses/schema.json');
    const imported = await runCommandInProcess(() => importCommand('examples/cities/cities.csv', { db: database }));
    if (imported.status !== 0) throw new Error(`import failed: ${imported.stderr}`);
    const session = await openSqlSession(database, { environment, progress: false });
    try {
      await session.run("CREATE TABLE world_cup_tournament AS SELECT * FROM srag_extract('examples/worldcup/docs/*', schema := 'examples/worldcup/schema.json')");
    } finally {
      await session.close();
    }
    const names = Object.keys(pageQuestions) as Array<keyof typeof pageQuestions>;
    const asked = await runCommandInProcess((signal) => askCommand(names.map((name) => pageQuestions[name]), { db: database, json: true }, signal), { database });
    if (asked.status !== 0) throw new Error(`srag ask failed: ${asked.stderr}`);
    const lines = asked.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    return { database, cliAnswers: Object.fromEntries(names.map((name, index) => [name, lines[index]!])) as PageDatabase['cliAnswers'] };
  } finally {
    vi.unstubAllEnvs();
  }
}
