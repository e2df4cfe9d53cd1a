import { describe, expect, it } from 'vitest';
import type { BridgeMessage } from '../../node/sql-functions/llm-bridge/bridge-protocol.ts';
import { JournalChannel } from '../../node/sql-functions/llm-bridge/journal-channel.ts';
import type { JournalEntry } from '../../node/duckdb/store/journal-entry.ts';
import { caught } from '../helpers/caught.ts';

const log = (source: string): JournalEntry => ({ kind: 'log', logName: 'srag_extract:hotel:test', entry: { source, contentHash: 'h', status: 'empty', error: null } });
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A channel and what it posted to the thread that owns DuckDB. */
function channel() {
  const posted: Array<Extract<BridgeMessage, { type: 'journal' }>> = [];
  const journal = new JournalChannel((message) => {
    if (message.type === 'journal') posted.push(message);
  });
  return { journal, posted };
}

describe('the bridge journal channel', () => {
  it('sends the writes made in one turn as one message, and settles each write when that message is acknowledged', async () => {
    const { journal, posted } = channel();
    const settled: string[] = [];
    const writes = ['/a.txt', '/b.txt', '/c.txt'].map((source) => journal.write([log(source)]).then(() => settled.push(source)));
    await nextTurn();
    expect(posted).toHaveLength(1);
    expect(posted[0]!.entries.map((entry) => entry.kind === 'log' && entry.entry.source)).toEqual(['/a.txt', '/b.txt', '/c.txt']);
    expect(settled).toEqual([]);
    let idle = false;
    void journal.idle().then(() => { idle = true; });
    journal.acknowledge({ type: 'journal-ack', id: posted[0]!.id });
    await Promise.all(writes);
    expect(settled).toEqual(['/a.txt', '/b.txt', '/c.txt']);
    await nextTurn();
    expect(idle).toBe(true);
  });

  it('fails every write of a refused message with STORE_FAILED, and refuses later writes without sending them', async () => {
    const { journal, posted } = channel();
    const first = journal.write([log('/a.txt')]);
    await nextTurn();
    journal.acknowledge({ type: 'journal-ack', id: posted[0]!.id });
    await first;
    const refused = [journal.write([log('/b.txt')]), journal.write([log('/c.txt')])].map(caught);
    await nextTurn();
    expect(posted).toHaveLength(2);
    journal.acknowledge({ type: 'journal-ack', id: posted[1]!.id, error: { code: 'INTERNAL', message: 'cannot write to the database: No space left on device' } });
    for (const error of await Promise.all(refused)) expect(error).toMatchObject({ code: 'STORE_FAILED', message: 'cannot write to the database: No space left on device' });
    expect(await caught(journal.write([log('/d.txt')]))).toMatchObject({ code: 'STORE_FAILED' });
    await nextTurn();
    expect(posted).toHaveLength(2);
  });
});
