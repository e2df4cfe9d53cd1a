import { describe, expect, it } from 'vitest';
import { countNoun, extractRecord, ModelClient, parseRecordSchema, runExtraction, type ExtractionStore } from '../../core/index.ts';
import { loadPromptLibrary } from '../../node/runtime/load-prompt-library.ts';
import { createRecordingLanguageModel } from '../helpers/recording-language-model.ts';

const schema = parseRecordSchema({ title: 'Hotel', properties: { hotel_name: { type: 'string', description: 'Name of the hotel as written.' } } });
const prompts = loadPromptLibrary();

describe('message wording', () => {
  it('puts a count with its noun in the right number', () => {
    expect([countNoun(0, 'retry', 'retries'), countNoun(1, 'retry', 'retries'), countNoun(2, 'retry', 'retries'), countNoun(1, 'document'), countNoun(12, 'document')])
      .toEqual(['0 retries', '1 retry', '2 retries', '1 document', '12 documents']);
  });

  it('says once why a reply was unusable, without nesting the parser\'s words in parentheses', async () => {
    const { languageModel } = createRecordingLanguageModel('Sure! Here is the record you asked for.');
    const error = await extractRecord({ client: new ModelClient({ languageModel, sleep: async () => {} }), prompts, schema, text: 'The Lido Hotel.' }).then(() => new Error('resolved'), (caught: unknown) => caught as Error);
    expect(error.message).toBe('extracting the record: the model\'s reply could not be used: the reply is not valid JSON: Unexpected token \'S\', "Sure! Here"...');
    const { languageModel: broken } = createRecordingLanguageModel('{"hotel_name": "Lido",');
    const syntax = await extractRecord({ client: new ModelClient({ languageModel: broken, sleep: async () => {} }), prompts, schema, text: 'The Lido Hotel.' }).then(() => new Error('resolved'), (caught: unknown) => caught as Error);
    expect(syntax.message).toMatch(/^extracting the record: the model's reply could not be used: the reply is not valid JSON: [^()]*$/);
    expect(syntax.message).not.toMatch(/not valid JSON.*not valid JSON/);
  });

  it('leaves the document out of its failure text: the line that reports it names it already', async () => {
    const store: ExtractionStore = {
      logEntries: async () => new Map(),
      saveRecord: async () => {},
      saveLogEntry: async () => {},
      responseCache: { get: async () => undefined, set: async () => {} },
      refreshStatistics: async () => {},
    };
    const { languageModel } = createRecordingLanguageModel('no JSON here');
    const summary = await runExtraction({
      client: new ModelClient({ languageModel, sleep: async () => {} }), prompts, schema, store,
      documents: [{ source: 'docs/lido-hotel.md', read: async () => 'The Lido Hotel.' }],
    });
    expect(summary.failures).toEqual([{ source: 'docs/lido-hotel.md', label: 'docs/lido-hotel.md', error: 'extracting the record: the model\'s reply could not be used: the reply is not valid JSON: Unexpected token \'o\', "no JSON here"' }]);
  });
});
