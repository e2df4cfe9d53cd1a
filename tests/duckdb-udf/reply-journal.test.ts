import { appendFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keptReplyText } from '../../node/duckdb/store/kept-reply-text.ts';
import { ReplyJournal } from '../../node/duckdb/store/reply-journal.ts';
import { SragStore } from '../../node/duckdb/store/srag-store.ts';
import { parseRecordSchema } from '../../core/index.ts';

const reply = (text: string) => ({ text, model: 'gpt-4o-mini', usage: { promptTokens: 120, completionTokens: 30 } });
const database = () => join(mkdtempSync(join(tmpdir(), 'srag-replies-')), 'srag.duckdb');

describe('the reply journal of srag ingest', () => {
  it('moves the replies a killed run left into srag_cache when the database opens, leaving out a line cut short, and removes the file', async () => {
    const path = database();
    (await SragStore.open(path)).close();
    const journal = ReplyJournal.open(path);
    journal.append({ key: 'first', response: reply('{"records":[]}') });
    journal.append({ key: 'second', response: reply('{"records":[{"id":"1"}]}') });
    journal.close();
    appendFileSync(ReplyJournal.fileOf(path), '{"key":"third","response":{"te');
    const store = await SragStore.open(path);
    try {
      expect(existsSync(ReplyJournal.fileOf(path))).toBe(false);
      const rows = (await store.connection.runAndReadAll('SELECT key, response, response_deflated, purpose FROM srag_cache ORDER BY key')).getRowsJS()
        .map(([key, response, deflated, purpose]) => [key, keptReplyText(response, deflated), purpose]);
      expect(rows).toEqual([['first', '{"records":[]}', 'extraction'], ['second', '{"records":[{"id":"1"}]}', 'extraction']]);
    } finally {
      store.close();
    }
  });

  it('serves a reply from the journal before its group commit, and leaves no file once every reply is in srag_cache', async () => {
    const path = database();
    const store = await SragStore.open(path);
    const schema = parseRecordSchema({ title: 'hotels', properties: { name: { type: 'string', description: 'Hotel name' } } });
    await store.registerTable('hotels', schema);
    const { responseCache } = store.extractionStore('hotels', schema);
    await responseCache.set('key-1', reply('{"records":[]}'));
    // On disk as the set returns, whatever the group commit is doing.
    expect(ReplyJournal.read(path).map(({ key }) => key)).toEqual(['key-1']);
    expect((await responseCache.get('key-1'))?.text).toBe('{"records":[]}');
    await store.exclusive(async () => undefined);
    store.close();
    expect(existsSync(ReplyJournal.fileOf(path))).toBe(false);
    const reopened = await SragStore.open(path);
    try {
      expect((await reopened.responseCache('extraction').get('key-1'))?.text).toBe('{"records":[]}');
    } finally {
      reopened.close();
    }
  });
});
