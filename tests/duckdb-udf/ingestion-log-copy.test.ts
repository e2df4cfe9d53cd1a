import { describe, expect, it } from 'vitest';
import { IngestionLogCopy, sourcesPerRead } from '../../node/sql-functions/llm-bridge/ingestion-log-copy.ts';

/** A line as the database exports it (`ingestionLogLineSql`). */
const line = (source: string, status: string, record: Record<string, unknown> | null, error: string | null = null) =>
  JSON.stringify({ source, content_hash: `hash of ${source}`, status, error, record: record && { ...record, _source: source, _content_hash: `hash of ${source}` } });

/** A copy over a stored log, recording which sources each read asked for (null: the whole log). */
/** `wholeTooLarge`: the whole log is more than the bridge reads at once. */
function copyOver(stored: Map<string, string>, wholeTooLarge = false) {
  const reads: Array<string[] | null> = [];
  const copy = new IngestionLogCopy(async (sources) => {
    reads.push(sources && [...sources]);
    if (sources === null) return wholeTooLarge ? undefined : [...stored.values()];
    return sources.flatMap((source) => (stored.has(source) ? [stored.get(source)!] : []));
  });
  return { copy, reads };
}

describe("the bridge's copy of an ingestion log", () => {
  it('reads from the database only the sources a run names that it has not read before, each once', async () => {
    const { copy, reads } = copyOver(new Map([['/a.md', line('/a.md', 'done', { name: 'A' })], ['/b.md', line('/b.md', 'failed', null, 'timeout')]]));
    await copy.load(['/a.md', '/b.md', '/a.md']);
    await copy.load(['/a.md', '/c.md']);
    // /c.md has no entry: that too is remembered.
    await copy.load(['/c.md', '/b.md']);
    expect(reads).toEqual([['/a.md', '/b.md'], ['/c.md']]);
    expect(copy.get('/a.md')).toEqual({ source: '/a.md', contentHash: 'hash of /a.md', status: 'done', error: null, values: { name: 'A' } });
    expect(copy.get('/b.md')).toEqual({ source: '/b.md', contentHash: 'hash of /b.md', status: 'failed', error: 'timeout' });
    expect(copy.get('/c.md')).toBeUndefined();
  });

  it('reads the whole log once after many reads of a row or so (the scalar form over read_text), and knows from it which documents have no entry', async () => {
    const stored = new Map(Array.from({ length: 100 }, (_, index) => [`/${index}.md`, line(`/${index}.md`, 'done', { name: `N${index}` })] as const));
    const { copy, reads } = copyOver(stored);
    copy.set({ source: '/99.md', contentHash: 'written', status: 'done', error: null, values: { name: 'written' } });
    for (let index = 0; index < 40; index += 1) await copy.load([`/${index}.md`]);
    expect(reads.slice(0, 32)).toEqual(Array.from({ length: 32 }, (_, index) => [`/${index}.md`]));
    expect(reads.slice(32)).toEqual([null]);
    // Nothing more is read: what the whole log does not hold has no entry; what this session wrote stays.
    await copy.load(['/50.md', '/new.md']);
    expect(reads).toHaveLength(33);
    expect(copy.get('/50.md')).toMatchObject({ values: { name: 'N50' } });
    expect(copy.get('/new.md')).toBeUndefined();
    expect(copy.get('/99.md')).toMatchObject({ contentHash: 'written' });
    // A large read (a table scan names its documents at once) does not count as a small one.
    const large = copyOver(stored);
    for (let round = 0; round < 40; round += 1) await large.copy.load(Array.from({ length: 65 }, (_, index) => `/r${round}-${index}.md`));
    expect(large.reads.every((read) => read !== null)).toBe(true);
  });

  it('keeps reading a row or so at a time when the whole log is too large to hold, and asks for it only once', async () => {
    const stored = new Map(Array.from({ length: 100 }, (_, index) => [`/${index}.md`, line(`/${index}.md`, 'done', { name: `N${index}` })] as const));
    const { copy, reads } = copyOver(stored, true);
    for (let index = 0; index < 60; index += 1) await copy.load([`/${index}.md`]);
    expect(reads.filter((read) => read === null)).toHaveLength(1);
    expect(reads.filter((read) => read !== null)).toHaveLength(60);
    expect(copy.get('/45.md')).toMatchObject({ values: { name: 'N45' } });
    await copy.load(['/70.md']);
    expect(copy.get('/70.md')).toMatchObject({ values: { name: 'N70' } });
    expect(reads.at(-1)).toEqual(['/70.md']);
  });

  it('keeps what this session wrote over what the database holds, and does not read it again', async () => {
    const { copy, reads } = copyOver(new Map([['/a.md', line('/a.md', 'done', { name: 'stale' })]]));
    copy.set({ source: '/a.md', contentHash: 'new hash', status: 'done', error: null, values: { name: 'fresh' } });
    await copy.load(['/a.md']);
    expect(reads).toEqual([]);
    expect(copy.get('/a.md')).toMatchObject({ contentHash: 'new hash', values: { name: 'fresh' } });
    // Written after a read, too.
    await copy.load(['/b.md']);
    copy.set({ source: '/b.md', contentHash: 'h', status: 'empty', error: 'no text' });
    expect(copy.get('/b.md')).toEqual({ source: '/b.md', contentHash: 'h', status: 'empty', error: 'no text' });
  });

  it('lets go of the entries of sources a run has passed: what this session wrote is read back from disk, what the database holds is read from it again', async () => {
    const { copy, reads } = copyOver(new Map([['/a.md', line('/a.md', 'done', { name: 'stored A' })], ['/b.md', line('/b.md', 'done', { name: 'stored B' })]]));
    await copy.load(['/a.md', '/b.md', '/c.md']);
    copy.set({ source: '/b.md', contentHash: 'new B', status: 'done', error: null, values: { name: 'written B' } });
    copy.set({ source: '/c.md', contentHash: 'new C', status: 'failed', error: 'timeout' });
    copy.forget(['/a.md', '/b.md', '/c.md']);
    // Written in this session (the database may not have it before the journal is applied): from the copy's file, not read again.
    expect(copy.get('/b.md')).toEqual({ source: '/b.md', contentHash: 'new B', status: 'done', error: null, values: { name: 'written B' } });
    expect(copy.get('/c.md')).toEqual({ source: '/c.md', contentHash: 'new C', status: 'failed', error: 'timeout' });
    // Only read from the database: read again when a run names it.
    expect(copy.get('/a.md')).toBeUndefined();
    await copy.load(['/a.md', '/b.md', '/c.md']);
    expect(reads).toEqual([['/a.md', '/b.md', '/c.md'], ['/a.md']]);
    expect(copy.get('/a.md')).toMatchObject({ values: { name: 'stored A' } });
    // Written again after it was let go of: the newer entry.
    copy.set({ source: '/b.md', contentHash: 'newer B', status: 'done', error: null, values: { name: 'rewritten B' } });
    expect(copy.get('/b.md')).toMatchObject({ contentHash: 'newer B', values: { name: 'rewritten B' } });
    expect([...copy.view().keys()].sort()).toEqual(['/a.md', '/b.md', '/c.md']);
  });

  it('knows a source has no entry only when the database had none and this session wrote none, also after letting go of it', async () => {
    const { copy } = copyOver(new Map([['/a.md', line('/a.md', 'done', { name: 'A' })]]));
    await copy.load(['/a.md', '/b.md']);
    expect([copy.knownToHaveNone('/a.md'), copy.knownToHaveNone('/b.md'), copy.knownToHaveNone('/never-read.md')]).toEqual([false, true, false]);
    copy.set({ source: '/b.md', contentHash: 'h', status: 'done', error: null, values: {} });
    expect(copy.knownToHaveNone('/b.md')).toBe(false);
    copy.forget(['/b.md']);
    await copy.load(['/b.md']);
    expect(copy.knownToHaveNone('/b.md')).toBe(false);
    // The database holds no entry of a schema first seen in this session.
    const fresh = new IngestionLogCopy();
    expect(fresh.knownToHaveNone('/a.md')).toBe(true);
    fresh.set({ source: '/a.md', contentHash: 'h', status: 'done', error: null, values: {} });
    expect(fresh.knownToHaveNone('/a.md')).toBe(false);
  });

  it("gives a done entry the record's values with every kind as the row holds it, without the internal columns", async () => {
    // As DuckDB writes it: `__proto__` is a column name like any other.
    const record = '{"__proto__":"a property like any other","hotel_name":"Amber","star_rating":4,"price_per_night":120.5,"has_pool":true,"opened_date":"1999-12-31","manager_name":null,"_source":"/a.md","_content_hash":"h"}';
    const { copy } = copyOver(new Map([['/a.md', `{"source":"/a.md","content_hash":"h","status":"done","error":null,"record":${record}}`]]));
    await copy.load(['/a.md']);
    const values = copy.get('/a.md')!.values!;
    expect(Object.keys(values).sort()).toEqual(['__proto__', 'has_pool', 'hotel_name', 'manager_name', 'opened_date', 'price_per_night', 'star_rating']);
    expect(Object.getOwnPropertyDescriptor(values, '__proto__')?.value).toBe('a property like any other');
    expect(values).toMatchObject({ hotel_name: 'Amber', star_rating: 4, price_per_night: 120.5, has_pool: true, opened_date: '1999-12-31', manager_name: null });
  });

  it('treats a done entry without its row (kept by a version of srag that kept none) as no entry, so the document is extracted again', async () => {
    const { copy } = copyOver(new Map([['/a.md', line('/a.md', 'done', null)]]));
    await copy.load(['/a.md']);
    expect(copy.get('/a.md')).toBeUndefined();
    expect(copy.view().has('/a.md')).toBe(false);
  });

  it('reads sources with quotes, backslashes and any characters in their names', async () => {
    const names = ['/docs/say "hi".md', '/docs/back\\slash.md', '/docs/café 東京 😀.md', '/docs/tab\there.md'];
    const { copy } = copyOver(new Map(names.map((name, index) => [name, line(name, 'done', { n: index })])));
    await copy.load(names);
    expect(names.map((name) => copy.get(name)?.values)).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('hands the run a map of the entries read or written, each read when asked for', async () => {
    const { copy } = copyOver(new Map([['/a.md', line('/a.md', 'done', { n: 1 })], ['/b.md', line('/b.md', 'done', null)]]));
    await copy.load(['/a.md', '/b.md', '/c.md']);
    copy.set({ source: '/d.md', contentHash: 'h', status: 'failed', error: 'x' });
    const view = copy.view();
    expect(view.size).toBe(2);
    expect([...view.keys()].sort()).toEqual(['/a.md', '/d.md']);
    expect(view.get('/a.md')?.values).toEqual({ n: 1 });
  });

  it('reads the entries of a large scan in slices, so that no file of them outgrows what one string can hold', async () => {
    const sources = Array.from({ length: 2 * sourcesPerRead + 3 }, (_, index) => `/docs/${index}.md`);
    const { copy, reads } = copyOver(new Map(sources.filter((_, index) => index % 1000 === 0).map((source) => [source, line(source, 'done', { n: 1 })])));
    await copy.load(sources);
    expect(reads.map((read) => read?.length)).toEqual([sourcesPerRead, sourcesPerRead, 3]);
    expect(reads.flat()).toEqual(sources);
    expect(copy.view().size).toBe(Math.ceil(sources.length / 1000));
  });

  it('reads nothing for a schema the database does not hold yet', async () => {
    const copy = new IngestionLogCopy();
    await copy.load(['/a.md']);
    expect(copy.get('/a.md')).toBeUndefined();
  });
});
