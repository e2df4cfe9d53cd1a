import { describe, expect, it } from 'vitest';
import {
  Bm25Index, createFullCorpusSystem, createRagSystem, evaluateQuestions, LanguageModelError, ModelClient, SqlFailedError, summarizeEvaluation,
  type AnsweringSystem, type TextEmbedder,
} from '../../core/index.ts';
import { loadPromptLibrary } from '../../node/runtime/load-prompt-library.ts';
import { createRecordingLanguageModel } from '../helpers/recording-language-model.ts';

/** These tests retry nothing that needs a real wait. */
const noWait = async () => {};

const prompts = loadPromptLibrary();
/** One token per word: sizes in these tests are easy to count. */
const countWords = (text: string) => text.split(/\s+/).filter(Boolean).length;
const documents = [
  { source: 'docs/lisbon.md', text: 'Harbour Inn is a hotel in Lisbon. It has a pool.' },
  { source: 'docs/paris.md', text: 'Amber Court is a hotel in Paris. It has no pool.' },
  { source: 'docs/rome.md', text: 'Opal Tower is a hotel in Rome. Guests love the pool and the pool bar.' },
];
const contextOf = (request: { messages: Array<{ content: string }> }) => request.messages[0]!.content.split('\nContext:\n')[1]!.trimEnd();

describe('BM25 keyword retrieval', () => {
  it('ranks texts holding rare query terms first and leaves out texts without any', () => {
    const index = new Bm25Index(documents.map((document) => document.text));
    expect(index.search('hotels in Rome', 10)[0]).toBe(2);
    expect(index.search('hotels in Rome', 10)).toHaveLength(3);
    expect(index.search('Which hotel is in Paris?', 1)).toEqual([1]);
    expect(index.search('zeppelin', 10)).toEqual([]);
  });
});

describe('the rag baseline', () => {
  it('cuts documents into chunks, retrieves the top k for the question and answers from them alone', async () => {
    const { languageModel, requests } = createRecordingLanguageModel('Lisbon.');
    const rag = createRagSystem({ client: new ModelClient({ languageModel, sleep: noWait }), prompts, documents, countTokens: countWords, chunkTokens: 6, topK: 2 });
    const answer = await rag.answer('Which hotel in Lisbon has a pool?');
    expect(rag.describe()).toBe('BM25 top-2 of 7 chunks of ≤6 tokens');
    expect(answer).toMatchObject({ answer: 'Lisbon.', contextSources: ['docs/lisbon.md'], usage: { calls: 1 } });
    expect(requests[0]!.messages[0]!.content).toMatch(/^Task: Answer the question using only the documents in the context\.\n/);
    expect(requests[0]!.messages[0]!.content).toContain('Question: Which hotel in Lisbon has a pool?');
    // The two best chunks, best first: both halves of the Lisbon page, each at most 6 tokens.
    expect(contextOf(requests[0]!)).toBe('<document source="docs/lisbon.md" part="2">\nLisbon. It has a pool.\n</document>\n\n<document source="docs/lisbon.md" part="1">\nHarbour Inn is a hotel in\n</document>');
  });

  it('ranks chunks by embedding similarity when the endpoint has embeddings', async () => {
    const embedder: TextEmbedder = {
      modelId: 'fake-embedding',
      embed: async (texts) => texts.map((text) => [text.includes('Rome') ? 1 : 0, text.includes('Paris') ? 1 : 0, 0.1]),
    };
    const { languageModel, requests } = createRecordingLanguageModel('Opal Tower.');
    const rag = createRagSystem({ client: new ModelClient({ languageModel, sleep: noWait }), prompts, documents, countTokens: countWords, topK: 1, embedder });
    await rag.answer('Name the hotel in Rome');
    expect(rag.describe()).toBe('embeddings (fake-embedding) top-1 of 3 chunks of ≤500 tokens');
    expect(contextOf(requests[0]!)).toContain('docs/rome.md');
  });
});

describe('the full-corpus baseline', () => {
  it('concatenates document prefixes in order until the context budget is full', async () => {
    const { languageModel, requests } = createRecordingLanguageModel('Two.');
    const fullCorpus = createFullCorpusSystem({ client: new ModelClient({ languageModel, sleep: noWait }), prompts, documents, countTokens: countWords, contextTokens: 14, documentTokens: 7 });
    const answer = await fullCorpus.answer('How many hotels have a pool?');
    expect(answer.contextSources).toEqual(['docs/lisbon.md', 'docs/paris.md']);
    expect(contextOf(requests[0]!)).toBe('<document source="docs/lisbon.md">\nHarbour Inn is a hotel in Lisbon.\n</document>\n\n<document source="docs/paris.md">\nAmber Court is a hotel in Paris.\n</document>');
    expect(fullCorpus.describe()).toBe('2 of 3 documents (each ≤7 tokens) in 14 of 14 context tokens');
  });
});

describe('evaluating systems', () => {
  const questions = [
    { question: 'How many hotels are in Rome?', answer: '1', gold: 1 },
    { question: 'Which hotel is in Paris?', answer: 'Amber Court' },
  ];
  const systemFrom = (name: string, answer: (question: string) => string): AnsweringSystem => ({
    name,
    describe: () => name,
    prepare: async () => {},
    answer: async (question) => ({ answer: answer(question), usage: { promptTokens: 100, completionTokens: 10, calls: 1 } }),
  });

  it('reports every system\'s answer to every question with its verdict, and summarizes per system', async () => {
    let clock = 0;
    const reports = await evaluateQuestions({
      systems: [systemFrom('good', (question) => (question.includes('Rome') ? 'One hotel.' : 'Amber Court')), systemFrom('bad', () => 'Opal Tower')],
      questions,
      concurrency: 1,
      now: () => (clock += 5),
    });
    expect(reports.map((report) => [report.system, report.index, report.verdicts.deterministic.correct])).toEqual([
      ['good', 1, false], ['good', 2, true], ['bad', 1, false], ['bad', 2, false],
    ]);
    expect(reports[0]).toMatchObject({ gold: '1', goldStructured: 1, sql: null, error: null, tokens: { prompt: 100, completion: 10, calls: 1 }, latencyMs: 5 });
    expect(summarizeEvaluation(reports)).toEqual([
      { system: 'good', questions: 2, errors: 0, deterministic: 0.5, judgeFailures: 0, promptTokensPerQuestion: 100, completionTokensPerQuestion: 10, meanLatencyMs: 5 },
      { system: 'bad', questions: 2, errors: 0, deterministic: 0, judgeFailures: 0, promptTokensPerQuestion: 100, completionTokensPerQuestion: 10, meanLatencyMs: 5 },
    ]);
  });

  it('judges a question a system failed on as wrong and goes on, but stops on a refused key', async () => {
    const failing: AnsweringSystem = {
      ...systemFrom('srag', () => ''),
      answer: async () => { throw new SqlFailedError({ sql: 'SELECT nope', question: 'q', engineMessage: 'Binder Error: nope' }); },
    };
    const reports = await evaluateQuestions({ systems: [failing], questions });
    expect(reports.map((report) => report.verdicts.deterministic.correct)).toEqual([false, false]);
    expect(reports[0]!.error).toMatch(/Binder Error: nope/);

    const refused: AnsweringSystem = { ...failing, answer: async () => { throw new LanguageModelError({ message: 'the model endpoint answered 401', status: 401, retryable: false }); } };
    await expect(evaluateQuestions({ systems: [refused], questions })).rejects.toThrow(/401/);
  });

  it('adds the judges\' verdicts when a judge is given', async () => {
    const { languageModel } = createRecordingLanguageModel((request) =>
      request.messages[0]!.content.startsWith('Task: Answer Recall, step 1.') ? '{"claims": ["Amber Court"]}' : 'Yes');
    const reports = await evaluateQuestions({
      systems: [systemFrom('good', () => 'Amber Court')],
      questions: [questions[1]!],
      judge: { client: new ModelClient({ languageModel, sleep: noWait }), prompts },
    });
    expect(reports[0]!.verdicts).toEqual({
      deterministic: { correct: true, reason: 'names Amber Court' },
      answerComparison: { correct: true, reply: 'Yes' },
      answerRecall: { recall: 1, claims: [{ claim: 'Amber Court', supported: true }] },
    });
    expect(summarizeEvaluation(reports)[0]).toMatchObject({ answerComparison: 1, answerRecall: 1 });
  });

  it('loses only that metric for that question when a judge\'s reply cannot be used', async () => {
    const three = [...questions, { question: 'Which hotel is in Lisbon?', answer: 'Harbour Inn' }];
    const { languageModel } = createRecordingLanguageModel((request) => {
      const prompt = request.messages[0]!.content;
      if (!prompt.startsWith('Task: Answer Recall, step 1.')) return 'Yes';
      // The claim-splitting reply for one question is unusable, the re-ask's too.
      return prompt.includes('Paris') ? 'I would rather not split this.' : '{"claims": ["the answer"]}';
    });
    const reports = await evaluateQuestions({
      systems: [systemFrom('srag', (question) => (question.includes('Paris') ? 'Amber Court' : 'One'))],
      questions: three,
      judge: { client: new ModelClient({ languageModel, sleep: async () => {} }), prompts },
    });
    expect(reports).toHaveLength(3);
    const paris = reports[1]!;
    expect(paris.verdicts.answerComparison).toEqual({ correct: true, reply: 'Yes' });
    expect(paris.verdicts.answerRecall).toBeUndefined();
    expect(paris.judgeErrors?.answerRecall).toMatch(/splitting the gold answer of "Which hotel is in Paris\?" into claims/);
    for (const other of [reports[0]!, reports[2]!]) {
      expect(other.judgeErrors).toBeUndefined();
      expect(other.verdicts.answerRecall?.recall).toBe(1);
    }
    expect(summarizeEvaluation(reports)[0]).toMatchObject({ answerComparison: 1, answerRecall: 1, judgeFailures: 1 });
  });

  it('stops on an error that would fail every question only after the questions already started have finished', async () => {
    const events: string[] = [];
    const system: AnsweringSystem = {
      ...systemFrom('srag', () => ''),
      answer: async (question) => {
        events.push(`start ${question}`);
        if (question.includes('Rome')) throw new LanguageModelError({ message: 'the model endpoint answered 401', status: 401, retryable: false });
        await new Promise((resolve) => setTimeout(resolve, 50));
        events.push(`end ${question}`);
        return { answer: 'Amber Court', usage: { promptTokens: 1, completionTokens: 1, calls: 1 } };
      },
    };
    const four = [questions[1]!, questions[0]!, { question: 'Third?', answer: 'x' }, { question: 'Fourth?', answer: 'y' }];
    await expect(evaluateQuestions({ systems: [system], questions: four, concurrency: 2 }).finally(() => events.push('rejected'))).rejects.toThrow(/401/);
    expect(events).toEqual(['start Which hotel is in Paris?', 'start How many hotels are in Rome?', 'end Which hotel is in Paris?', 'rejected']);
  });
});
