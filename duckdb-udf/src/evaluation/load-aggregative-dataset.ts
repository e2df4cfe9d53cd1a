import path from 'node:path';
import { parseAggregativeDataset, type AggregativeDataset } from '../../../core/index.ts';
import { readTextFile } from '../read-text-file.ts';

/**
 * Read `DIR/corpus.jsonl` and `DIR/questions.jsonl`, the layout of the AI21 aggregative_questions
 * release (e.g. `datasets/AI21-Hotels/`), and parse them strictly.
 */
export async function loadAggregativeDataset(directory: string): Promise<AggregativeDataset> {
  const read = async (name: string) => {
    const file = path.join(directory, name);
    const hint = '--dataset takes a directory holding corpus.jsonl and questions.jsonl, e.g. datasets/AI21-Hotels from huggingface.co/datasets/ai21labs/aggregative_questions';
    return { text: await readTextFile(file, { hint }), name: file };
  };
  const [corpus, questions] = await Promise.all([read('corpus.jsonl'), read('questions.jsonl')]);
  return parseAggregativeDataset({ corpusText: corpus.text, corpusName: corpus.name, questionsText: questions.text, questionsName: questions.name });
}
