import { afterAll, describe, expect, it, vi } from 'vitest';
import type { DocumentSource } from '../../core/index.ts';
import { loadPromptLibrary } from '../../node/runtime/load-prompt-library.ts';
import { memoryExtractionStore } from '../helpers/memory-extraction-store.ts';
import { createRecordingLanguageModel } from '../helpers/recording-language-model.ts';

// A reader that throws what no reader should (the call stack exhausted by a document nested
// 5,000 deep, as reduceHtml once did): the run must fail that document alone, never stop.
// doMock and a fresh import, not vi.mock: test files share their worker (isolate: false), so core
// may already be loaded with the real reader when this file starts.
vi.doMock('../../core/documents/document-text.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../core/documents/document-text.ts')>();
  return {
    ...original,
    documentText: (path: string, content: string) => {
      if (path.endsWith('nested.html')) throw new RangeError('Maximum call stack size exceeded\n    at renderNode (reduce-html.ts:1:1)');
      return original.documentText(path, content);
    },
  };
});

vi.resetModules();
const { ModelClient, parseRecordSchema, runExtraction } = await import('../../core/index.ts');
afterAll(() => {
  vi.doUnmock('../../core/documents/document-text.ts');
  vi.resetModules();
});

const schema = parseRecordSchema({ title: 'Hotel', properties: { stars: { type: 'integer', description: 'Official star rating.' } } });
const texts = { 'alpha.txt': 'The Alpha Hotel has 2 stars.', 'nested.html': '<div><div>The Deep Hotel has 5 stars.</div></div>', 'bravo.txt': 'The Bravo Hotel has 3 stars.' };
const documents: DocumentSource[] = Object.entries(texts).map(([name, text]) => ({ source: `/corpus/${name}`, label: name, read: async () => text }));

/** A model that reads the stars of each document of a batch. */
function reply(request: { messages: Array<{ role: string; content: string }> }): string {
  const user = request.messages.find((message) => message.role === 'user')!.content;
  const batch = [...user.matchAll(/^<document id="([^"]+)" boundary="([^"]+)">\n([\s\S]*?)\n<\/document boundary="\2">$/gm)];
  const record = (text: string) => {
    const stars = /has (\d) stars/.exec(text)?.[1];
    return { stars: { value: stars ? Number(stars) : null, quote: stars ? `has ${stars} stars` : null } };
  };
  return JSON.stringify(batch.length ? { records: batch.map((match) => ({ id: match[1], ...record(match[3]!) })) } : record(user));
}

describe('a document whose text cannot be made', () => {
  it('fails alone, with a one-line reason that names it, and the others are extracted', async () => {
    const { store, log } = memoryExtractionStore();
    const { languageModel } = createRecordingLanguageModel(reply);
    const client = new ModelClient({ languageModel, retry: { maxRetries: 0 }, sleep: async () => {} });
    const summary = await runExtraction({ client, prompts: loadPromptLibrary(), schema, documents, store });
    expect(summary).toMatchObject({ total: 3, done: 2, failed: 1 });
    expect(summary.failures).toEqual([{
      source: '/corpus/nested.html', label: 'nested.html',
      error: 'nested.html could not be read as text (RangeError: Maximum call stack size exceeded)',
    }]);
    expect(log.get('/corpus/nested.html')).toMatchObject({ status: 'failed' });
    expect(log.get('/corpus/alpha.txt')).toMatchObject({ status: 'done', values: { stars: 2 } });
    expect(log.get('/corpus/bravo.txt')).toMatchObject({ status: 'done', values: { stars: 3 } });
  });
});
