// The page of `srag serve`: DOM code over the server's JSON API, bundled with the chart library
// (serve-page/build-page.mjs). Every value shown comes through textContent, never as HTML.
import { getJson, keepTokenFromAddress, postJson } from './api.ts';
import type { AnswerBody, TableDetail } from './api-types.ts';
import { renderAnswer } from './answer-view.ts';
import { run } from './banner.ts';
import { button, byId, create } from './elements.ts';
import { setUpIngest } from './ingest-view.ts';
import { pageState } from './page-state.ts';
import { browse } from './records-view.ts';

keepTokenFromAddress();

/** Reads the tables and shows them; an empty database leads to the ingest form. */
async function loadTables(): Promise<void> {
  await run(async () => {
    const { details } = await getJson<{ details: TableDetail[] }>('/tables');
    pageState.tables = details;
    const origin = (table: TableDetail) => (table.madeBy === 'srag import' ? 'imported' : table.parent ? `items of ${table.parent}` : table.madeBy === 'srag_extract' ? 'made by srag_extract' : 'ingested');
    const askTable = byId<HTMLSelectElement>('ask-table');
    const pinned = askTable.value;
    askTable.replaceChildren(create('option', 'all tables (automatic)'), ...details.map((table) => create('option', table.name)));
    (askTable.firstElementChild as HTMLOptionElement).value = '';
    askTable.value = details.some((table) => table.name === pinned) ? pinned : '';
    const browsed = byId<HTMLSelectElement>('browse-table');
    const shown = browsed.value;
    browsed.replaceChildren(...details.map((table) => Object.assign(create('option', `${table.name} (${origin(table)})`), { value: table.name })));
    const list = byId('tables-list');
    list.replaceChildren(...details.map((table) => {
      const item = create('li');
      item.append(button(table.name, () => void browse(table.name), 'link'), create('span', ` — ${table.title}, ${origin(table)}${table.importedFrom ? ` from ${table.importedFrom} (no documents, no evidence)` : ''}`, 'muted'));
      return item;
    }));
    const empty = details.length === 0;
    byId('empty-database').hidden = !empty;
    byId('records-section').hidden = empty;
    byId<HTMLButtonElement>('ask-button').disabled = empty;
    if (empty) return;
    // The table shown first is one made from documents, not the first in the alphabet.
    const first = details.find((table) => table.name === shown) ?? details.find((table) => table.madeBy === 'srag ingest' && !table.parent) ?? details[0]!;
    await browse(first.name);
  });
}

/** Asks a question through the one pipeline: all tables unless one is pinned, as `srag ask` without or with --table. */
function ask(options: { table?: string; extendSchema?: boolean; hybrid?: boolean } = {}): void {
  const question = byId<HTMLInputElement>('question').value.trim();
  if (!question) return;
  const table = options.table ?? (byId<HTMLSelectElement>('ask-table').value || undefined);
  const target = byId('answer');
  target.replaceChildren(create('p', options.extendSchema ? 'Adding the attributes the question needs, then answering…' : 'Thinking…', 'muted'));
  byId('trace').hidden = true;
  pageState.answer = undefined;
  void run(async () => {
    const answer = await postJson<AnswerBody>('/query', { question, ...(table ? { table } : {}), ...(options.extendSchema ? { extend_schema: true } : {}), ...(options.hybrid === false ? { hybrid: false } : {}) });
    pageState.answer = answer;
    renderAnswer(answer);
  }, (fix, value) => {
    if (fix.kind === 'name-table') {
      byId<HTMLSelectElement>('ask-table').value = value;
      ask({ table: value });
    }
    if (fix.kind === 'extend-schema') ask({ table: value || table, extendSchema: true });
    if (fix.kind === 'answer-from-sql') ask({ table, hybrid: false });
  }).then(() => {
    // A failed question leaves no earlier answer on screen as if it were this one's.
    if (!pageState.answer) target.replaceChildren(create('p', 'No answer.', 'muted'));
  });
}

byId('ask').addEventListener('submit', (event) => {
  event.preventDefault();
  ask();
});
byId('browse-table').addEventListener('change', () => void browse(byId<HTMLSelectElement>('browse-table').value));
byId('go-to-ingest').addEventListener('click', () => byId('ingest-paths').focus());
setUpIngest(() => void loadTables());
void loadTables();
