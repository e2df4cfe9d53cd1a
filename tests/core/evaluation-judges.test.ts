import { describe, expect, it } from 'vitest';
import { judgeAnswerComparison, judgeAnswerRecall, ModelClient, readYesNo } from '../../core/index.ts';
import { loadPromptLibrary } from '../../node/runtime/load-prompt-library.ts';
import { createRecordingLanguageModel } from '../helpers/recording-language-model.ts';

const prompts = loadPromptLibrary();
const clientFor = (languageModel: ReturnType<typeof createRecordingLanguageModel>['languageModel']) =>
  new ModelClient({ languageModel, sleep: async () => {} });
const judged = { question: 'How many 4-star hotels are there in Rome?', goldAnswer: '3', answer: 'There are 3.' };

describe('reading a judge\'s yes or no', () => {
  it.each([
    ['Yes', true], ['Yes.', true], ['**No**', false], ['yes, because the counts agree', true], ['The answer is correct: Yes', true],
    ['No. The judged answer says yes, but the gold says 5.', false], ['Verdict: no', false], ['TRUE', true],
    ['The judged answer is incorrect.', false], ['The judged answer is correct.', true],
  ])('reads %j as %s', (reply, verdict) => {
    expect(readYesNo(reply)).toBe(verdict);
  });

  it('reads neither from a reply that says neither', () => {
    expect(readYesNo('I am not sure what to make of it.')).toBeUndefined();
  });
});

describe('Answer Comparison', () => {
  it('sends the Appendix E prompt with query, gold and judged answer, and reads the verdict', async () => {
    const { languageModel, requests } = createRecordingLanguageModel('**Yes**');
    const judgement = await judgeAnswerComparison({ client: clientFor(languageModel), prompts, ...judged, model: 'judge-model' });
    expect(judgement).toMatchObject({ verdict: true, reply: '**Yes**' });
    expect(requests[0]!.model).toBe('judge-model');
    const prompt = requests[0]!.messages[0]!.content;
    expect(prompt).toContain('You are given a query, a gold answer, and a judged answer. Decide if the judged answer is a correct answer for the query, based on the gold answer.');
    expect(prompt).toContain('<query>\nHow many 4-star hotels are there in Rome?\n</query>\n<gold_answer>\n3\n</gold_answer>\n<judged_answer>\nThere are 3.\n</judged_answer>');
  });

  it('asks once more when the reply says neither yes nor no, then gives up without failing', async () => {
    const twice = createRecordingLanguageModel(['Hmm.', 'No']);
    expect((await judgeAnswerComparison({ client: clientFor(twice.languageModel), prompts, ...judged })).verdict).toBe(false);
    expect(twice.requests).toHaveLength(2);
    const never = createRecordingLanguageModel('It depends.');
    expect(await judgeAnswerComparison({ client: clientFor(never.languageModel), prompts, ...judged })).toMatchObject({ verdict: undefined, reply: 'It depends.' });
  });
});

describe('Answer Recall', () => {
  it('splits the gold into claims, checks each against the answer and reports the covered fraction', async () => {
    const { languageModel, requests } = createRecordingLanguageModel((request) => {
      const prompt = request.messages[0]!.content;
      if (prompt.startsWith('Task: Answer Recall, step 1.')) return '{"claims": ["Paris has 10 hotels", "Rome has 8 hotels"]}';
      return prompt.includes('<claim>\nParis has 10 hotels\n</claim>') ? 'Yes' : 'No, Rome is not mentioned.';
    });
    const recall = await judgeAnswerRecall({ client: clientFor(languageModel), prompts, question: 'How many hotels are in each city?', goldAnswer: 'Paris: 10, Rome: 8', answer: 'Paris: 10' });
    expect(recall.recall).toBe(0.5);
    expect(recall.claims).toEqual([{ claim: 'Paris has 10 hotels', supported: true }, { claim: 'Rome has 8 hotels', supported: false }]);
    expect(requests[0]!.outputSchema?.name).toBe('claims');
    expect(requests[1]!.messages[0]!.content).toContain('<judged_answer>\nParis: 10\n</judged_answer>');
  });
});
