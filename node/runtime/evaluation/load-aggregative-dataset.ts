import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseAggregativeDataset, SragError, type AggregativeDataset } from '../../../core/index.ts';
import { readTextFile } from '../read-text-file.ts';

/** One split of a dataset as read: its folder and what it holds. */
export interface DatasetSplit {
  directory: string;
  dataset: AggregativeDataset;
}

/**
 * A dataset as `srag eval --dataset` uses it, the way the S-RAG paper does: the schema predicted
 * from the train split's documents and questions, the eval split ingested and its questions asked.
 * A dataset of one folder serves both (`schema` is then `evaluated`).
 */
export interface LoadedDataset {
  evaluated: DatasetSplit;
  schema: DatasetSplit;
}

/** The file names of one split, as the AI21 release has them. */
const splitFiles = ['corpus.jsonl', 'questions.jsonl'] as const;
const releaseHint = '--dataset takes a folder holding corpus.jsonl and questions.jsonl, or the name of a dataset whose splits are NAME_train/ and NAME_eval/ (huggingface.co/datasets/ai21labs/aggregative_questions: datasets/AI21-Hotels_train and datasets/AI21-Hotels_eval, given as datasets/AI21-Hotels or either split)';

/**
 * Reads the dataset `given` names, in the layouts of the AI21 aggregative_questions release:
 * - `datasets/AI21-Hotels` — no such folder, but `datasets/AI21-Hotels_train/` and
 *   `datasets/AI21-Hotels_eval/` beside it — or the folder that holds both splits: train for the
 *   schema, eval for the rest;
 * - either split (`datasets/AI21-Hotels_eval`) with its sibling present: the same;
 * - a folder with `corpus.jsonl` and `questions.jsonl` and no sibling split: it alone.
 * Anything else is refused naming the folders and files expected and what was found.
 */
export async function loadAggregativeDataset(given: string): Promise<LoadedDataset> {
  const splits = await findSplits(given);
  const evaluated = { directory: splits.evaluated, dataset: await readSplit(splits.evaluated) };
  const schema = splits.schema === splits.evaluated ? evaluated : { directory: splits.schema, dataset: await readSplit(splits.schema) };
  return { evaluated, schema };
}

async function findSplits(given: string): Promise<{ evaluated: string; schema: string }> {
  const trimmed = given.replace(/[\\/]+$/, '');
  const split = /^(.*)_(train|eval)$/.exec(trimmed);
  const prefix = split ? split[1]! : trimmed;
  if (await holdsSplit(`${prefix}_eval`) && await holdsSplit(`${prefix}_train`)) return { evaluated: `${prefix}_eval`, schema: `${prefix}_train` };
  if (await isFolder(trimmed)) {
    if (await holdsSplit(trimmed)) return { evaluated: trimmed, schema: trimmed };
    // The folder holding both splits: one NAME_train and one NAME_eval inside it.
    const entries = await readdir(trimmed).catch(() => [] as string[]);
    const evals = entries.filter((entry) => entry.endsWith('_eval') && entries.includes(`${entry.slice(0, -'_eval'.length)}_train`));
    if (evals.length === 1) {
      const name = path.join(trimmed, evals[0]!.slice(0, -'_eval'.length));
      if (await holdsSplit(`${name}_eval`) && await holdsSplit(`${name}_train`)) return { evaluated: `${name}_eval`, schema: `${name}_train` };
    }
    throw new SragError({
      code: 'INPUT_INVALID',
      message: `--dataset ${given}: the folder holds neither ${splitFiles.join(' and ')} nor one pair of NAME_train/ and NAME_eval/ folders (found: ${describeEntries(entries)})`,
      hint: releaseHint,
    });
  }
  const parent = path.dirname(trimmed);
  const siblings = (await readdir(parent).catch(() => [] as string[])).filter((entry) => entry.startsWith(path.basename(prefix)));
  throw new SragError({
    code: 'INPUT_INVALID',
    message: `--dataset ${given}: no folder ${trimmed}, nor ${prefix}_train/ and ${prefix}_eval/ each with ${splitFiles.join(' and ')} (found in ${parent}: ${describeEntries(siblings)})`,
    hint: releaseHint,
  });
}

async function readSplit(directory: string): Promise<AggregativeDataset> {
  const read = async (name: string) => {
    const file = path.join(directory, name);
    return { text: await readTextFile(file, { hint: releaseHint }), name: file };
  };
  const [corpus, questions] = await Promise.all(splitFiles.map(read));
  return parseAggregativeDataset({ corpusText: corpus!.text, corpusName: corpus!.name, questionsText: questions!.text, questionsName: questions!.name });
}

async function holdsSplit(directory: string): Promise<boolean> {
  for (const name of splitFiles) {
    if (!(await stat(path.join(directory, name)).then((found) => found.isFile(), () => false))) return false;
  }
  return true;
}

function isFolder(directory: string): Promise<boolean> {
  return stat(directory).then((found) => found.isDirectory(), () => false);
}

function describeEntries(entries: string[]): string {
  if (entries.length === 0) return 'nothing';
  const shown = entries.slice(0, 8).join(', ');
  return entries.length > 8 ? `${shown}, … (${entries.length} in all)` : shown;
}
