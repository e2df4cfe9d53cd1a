import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { contentHash } from '../../core/index.ts';
import { evalCommand, type EvalCommandOptions } from '../../node/cli/eval-command.ts';
import { loadAggregativeDataset } from '../../node/runtime/evaluation/load-aggregative-dataset.ts';
import { readGoldQuestions } from '../helpers/gold-questions.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { caught } from '../helpers/caught.ts';
import { runCommandInProcess } from '../helpers/run-command-in-process.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';

// The S-RAG paper's datasets as AI21 published them (huggingface.co/datasets/ai21labs/aggregative_questions):
// datasets/AI21-Hotels_train/ and datasets/AI21-Hotels_eval/, each with corpus.jsonl — the text in
// "document_content", no id field known — and questions.jsonl. Made here from the hotels sample:
// 12 pages for train, the other 38 for eval.

const workDirectory = mkdtempSync(join(tmpdir(), 'srag-released-'));
const datasets = join(workDirectory, 'datasets');
const pages = readdirSync(join(repositoryRoot, 'examples/hotels/docs')).sort();
const questions = readGoldQuestions('examples/hotels');

function writeSplit(name: string, names: string[], asked: typeof questions): string {
  const directory = join(datasets, name);
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, 'corpus.jsonl'), names.map((page) => JSON.stringify({ document_content: readFileSync(join(repositoryRoot, 'examples/hotels/docs', page), 'utf8') })).join('\n'));
  writeFileSync(join(directory, 'questions.jsonl'), asked.map(({ question, answer }) => JSON.stringify({ question, answer })).join('\n'));
  return directory;
}

const train = writeSplit('AI21-Hotels_train', pages.slice(0, 12), questions.slice(0, 10));
const evaluated = writeSplit('AI21-Hotels_eval', pages.slice(12), questions.slice(10, 13));
const options = (dataset: string, database: string): EvalCommandOptions => ({
  dataset, db: database, system: 'srag', judge: false, topK: 40, chunkTokens: 500, contextTokens: 100_000, documentTokens: 20_000, retrieval: 'bm25', tolerance: 0.001, concurrency: 2,
});

describe('the released layout, split in NAME_train and NAME_eval', () => {
  it('is found from the name, from the folder that holds both, and from either split with its sibling beside it', async () => {
    for (const given of [join(datasets, 'AI21-Hotels'), train, `${evaluated}/`, datasets]) {
      const loaded = await loadAggregativeDataset(given);
      expect({ given, schema: loaded.schema.directory, evaluated: loaded.evaluated.directory }).toEqual({ given, schema: train, evaluated });
    }
    const loaded = await loadAggregativeDataset(join(datasets, 'AI21-Hotels'));
    expect(loaded.evaluated.dataset.documents).toHaveLength(38);
    expect(loaded.schema.dataset.questions).toHaveLength(10);
    expect(loaded.evaluated.dataset.fields).toMatchObject({ documentId: null, documentText: 'document_content' });
  });

  it('names the folders and files it expected and what it found, for another layout', async () => {
    const error = await caught(loadAggregativeDataset(join(datasets, 'AI21-WorldCup')));
    expect((error as Error).message).toBe(`--dataset ${join(datasets, 'AI21-WorldCup')}: no folder ${join(datasets, 'AI21-WorldCup')}, nor ${join(datasets, 'AI21-WorldCup')}_train/ and ${join(datasets, 'AI21-WorldCup')}_eval/ each with corpus.jsonl and questions.jsonl (found in ${datasets}: nothing)`);
    const stray = join(workDirectory, 'stray');
    mkdirSync(stray);
    writeFileSync(join(stray, 'corpus.json'), '{}');
    expect((await caught(loadAggregativeDataset(stray)) as Error).message).toBe(`--dataset ${stray}: the folder holds neither corpus.jsonl and questions.jsonl nor one pair of NAME_train/ and NAME_eval/ folders (found: corpus.json)`);
  });

  describe('srag eval --dataset datasets/AI21-Hotels', () => {
    let standIn: LlmStandIn;
    beforeAll(async () => {
      standIn = await startLlmStandIn({ corpora: ['examples/hotels'] });
      vi.stubEnv('OPENAI_BASE_URL', standIn.url);
      vi.stubEnv('OPENAI_API_KEY', 'sk-test-not-a-real-key-0000');
      vi.stubEnv('SRAG_CONCURRENCY', '8');
    });
    afterAll(async () => {
      vi.unstubAllEnvs();
      await standIn.close();
    });

    it('predicts the schema from the train split\'s documents and questions, ingests and asks the eval split, and says which served what', async () => {
      const run = await runCommandInProcess((signal) => evalCommand(options(join(datasets, 'AI21-Hotels'), join(workDirectory, 'hotels.duckdb')), signal));
      expect(run.status, run.stderr).toBe(0);
      expect(run.stderr).toContain(`${train}: 12 documents (ids made from each text, doc-<sha256…>, "document_content"), 10 questions ("question", "answer")`);
      expect(run.stderr).toContain(`predicting a schema from 12 documents and 10 questions of ${train}`);
      expect(run.stderr).toContain('38 ingested, 0 unchanged, 0 failed');
      expect(run.stdout).toContain(`dataset: the schema predicted from ${train}; documents ingested and questions asked from ${evaluated}`);
      expect(run.stdout).toMatch(/3 questions × 1 system/);
      // The schema was predicted from train pages only; the extraction read only eval pages.
      const predicted = standIn.requests.filter((request) => request.kind === 'predict-schema-first' || request.kind === 'refine-schema');
      expect(predicted.length).toBeGreaterThan(0);
      const idOf = (page: string) => `doc-${contentHash(readFileSync(join(repositoryRoot, 'examples/hotels/docs', page), 'utf8')).slice(0, 12)}`;
      const asked = JSON.stringify(predicted.map((request) => request.body));
      expect(pages.slice(0, 12).filter((page) => asked.includes(idOf(page))).length).toBeGreaterThan(0);
      expect(pages.slice(12).filter((page) => asked.includes(idOf(page)))).toEqual([]);
    });
  });
});
