// The page of `srag serve`: plain DOM code over the server's JSON API (no build step).
// Every value shown comes through textContent, never as HTML.

const element = (id) => document.getElementById(id);
const tokenKey = 'srag-serve-token';
const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
if (fromHash) {
  sessionStorage.setItem(tokenKey, fromHash);
  history.replaceState(null, '', location.pathname);
}

/** Calls the API; asks for the server's token once when it wants one. */
async function api(path, init = {}) {
  const token = sessionStorage.getItem(tokenKey);
  const headers = { ...(init.headers ?? {}), ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const response = await fetch(path, { ...init, headers });
  if (response.status === 401 && !init.retried) {
    const entered = prompt('This server needs its token (SRAG_SERVE_TOKEN):');
    if (entered) {
      sessionStorage.setItem(tokenKey, entered);
      return api(path, { ...init, retried: true });
    }
  }
  return response;
}

async function json(path, init) {
  const response = await api(path, init);
  const body = await response.json();
  if (!response.ok) {
    const error = new Error(body.error ? `${body.error.message}${body.error.hint ? ` — ${body.error.hint}` : ''}` : response.statusText);
    error.code = body.error?.code;
    throw error;
  }
  return body;
}

const create = (tag, text, className) => {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
};
const display = (value) => (value === null || value === undefined ? 'NULL' : typeof value === 'object' ? JSON.stringify(value) : String(value));
const tableQuery = () => (element('table').value ? `table=${encodeURIComponent(element('table').value)}` : '');

function renderTable(target, columns, rows, onCell) {
  target.replaceChildren();
  const head = create('tr');
  for (const column of columns) head.append(create('th', column));
  target.append(head);
  rows.forEach((row, rowIndex) => {
    const line = create('tr');
    row.forEach((value, columnIndex) => {
      const cell = create('td', display(value), value === null ? 'muted' : undefined);
      cell.title = display(value);
      onCell?.(cell, rowIndex, columnIndex);
      line.append(cell);
    });
    target.append(line);
  });
}

async function loadTables() {
  const { tables } = await json('/tables');
  const select = element('table');
  select.replaceChildren(...tables.map((name) => create('option', name)));
  element('connection').textContent = tables.length ? '' : 'no table yet: ingest documents below';
  if (tables.length) await Promise.all([loadSchema(), loadRecords()]);
}

async function loadSchema() {
  const schema = await json(`/schema?${tableQuery()}`);
  const list = create('div');
  list.append(create('div', `${schema.title} (${schema.table})`, 'muted'));
  for (const attribute of schema.attributes) {
    const line = create('div', undefined, 'attribute');
    line.append(create('b', attribute.name), create('span', ` ${attribute.kind}${attribute.unit ? `, ${attribute.unit}` : ''} — `, 'muted'), create('span', attribute.description ?? ''));
    list.append(line);
  }
  element('schema').replaceChildren(list);
}

async function loadRecords() {
  const page = await json(`/records?${tableQuery()}&limit=500`);
  const sourceColumn = page.columns.length - 1;
  const columns = [...page.columns.slice(0, sourceColumn), 'document'];
  const rows = page.rows.map((row, index) => [...row.slice(0, sourceColumn), page.labels[index]]);
  element('records-count').textContent = `${page.rows.length} of ${page.total}`;
  renderTable(element('records'), columns, rows, (cell, rowIndex, columnIndex) => {
    if (columnIndex === sourceColumn) return;
    cell.classList.add('value');
    cell.dataset.attribute = page.columns[columnIndex];
    cell.dataset.source = page.rows[rowIndex][sourceColumn];
    cell.addEventListener('click', () => {
      for (const selected of document.querySelectorAll('#records td.selected')) selected.classList.remove('selected');
      cell.classList.add('selected');
      showEvidence(cell.dataset.source, cell.dataset.attribute).catch(showEvidenceError);
    });
  });
}

function showEvidenceError(error) {
  element('evidence').replaceChildren(create('h2', 'Evidence'), create('p', error.message, 'error'));
}

async function showEvidence(source, attribute) {
  const table = tableQuery();
  const why = await json(`/why?${table}&document=${encodeURIComponent(source)}&attribute=${encodeURIComponent(attribute)}`);
  const facts = create('dl');
  const fact = (name, value, className) => facts.append(create('dt', name), create('dd', value, className));
  fact('attribute', attribute);
  fact('value', display(why.value));
  fact('status', why.status, `status-${why.status}`);
  fact('model returned', why.raw ?? '—');
  fact('quote', why.quote ?? (why.status === 'unchecked' ? 'none (ingested without evidence)' : 'none'));
  if (why.reason) fact('reason', why.reason);
  const section = element('evidence');
  section.replaceChildren(create('h2', 'Evidence'), facts);
  const documentView = await json(`/document?${table}&source=${encodeURIComponent(source)}${why.quote ? `&quote=${encodeURIComponent(why.quote)}` : ''}`);
  const text = create('div');
  text.id = 'document-text';
  let position = 0;
  for (const span of documentView.spans) {
    text.append(document.createTextNode(documentView.text.slice(position, span.start)), create('mark', documentView.text.slice(span.start, span.end)));
    position = span.end;
  }
  text.append(document.createTextNode(documentView.text.slice(position)));
  section.append(create('h2', documentView.label), text);
  if (why.quote && documentView.spans.length === 0) section.append(create('p', 'The quote was not found word for word in the text.', 'muted'));
  text.querySelector('mark')?.scrollIntoView({ block: 'center' });
}

element('ask').addEventListener('submit', async (event) => {
  event.preventDefault();
  const question = element('question').value.trim();
  if (!question) return;
  const target = element('answer');
  target.replaceChildren(create('p', 'Thinking…', 'muted'));
  try {
    const { answer, sql, columns, rows, usage, ...more } = await json('/query', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question, ...(element('table').value ? { table: element('table').value } : {}) }),
    });
    const result = create('table');
    renderTable(result, columns, rows);
    target.replaceChildren(create('p', answer, 'answer'), create('pre', sql), Object.assign(create('div', undefined, 'scroll'), { id: 'result' }));
    element('result').append(result);
    target.append(create('p', `${usage.calls} model calls, ${usage.promptTokens} prompt + ${usage.completionTokens} completion tokens`, 'muted'));
    if (Object.keys(more).length) {
      const details = create('details');
      details.append(create('summary', 'more about this answer'), create('pre', JSON.stringify(more, null, 2)));
      target.append(details);
    }
  } catch (error) {
    target.replaceChildren(create('p', error.message, 'error'));
  }
});

element('ingest').addEventListener('submit', async (event) => {
  event.preventDefault();
  const paths = element('ingest-paths').value.split('\n').map((line) => line.trim()).filter(Boolean);
  try {
    const job = await json('/ingest', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ paths, schema: element('ingest-schema').value.trim() }),
    });
    await followJob(job);
  } catch (error) {
    element('jobs').prepend(create('p', error.message, 'error'));
  }
});

/** Shows a job and follows its server-sent events until it ends. */
async function followJob(job) {
  const box = create('div');
  box.id = `job-${job.id}`;
  element('jobs').prepend(box);
  const render = (current) => {
    const { completed, total, failed } = current.progress;
    const bar = create('progress');
    bar.max = total || 1;
    bar.value = completed;
    box.replaceChildren(create('div', `${current.table}: ${current.status}, ${completed}/${total} documents${failed ? `, ${failed} failed` : ''}`), bar);
    if (current.result) {
      const summary = current.result.summary;
      box.append(create('div', `${summary.done} done, ${summary.failed} failed, ${summary.unchanged} unchanged`, 'muted'));
    }
    if (current.error) box.append(create('div', current.error.message, 'error'));
  };
  render(job);
  const response = await api(`/jobs/${job.id}/events`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let last = job;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const message = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = message.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).join('\n');
      if (data) render((last = JSON.parse(data)));
    }
  }
  if (last.status === 'done') await loadTables();
}

element('table').addEventListener('change', () => Promise.all([loadSchema(), loadRecords()]).catch(showEvidenceError));

loadTables().catch((error) => element('connection').replaceChildren(create('span', error.message, 'error')));
json('/jobs').then(({ jobs }) => {
  for (const job of jobs.filter((candidate) => candidate.status === 'queued' || candidate.status === 'running').reverse()) followJob(job);
}).catch(() => {});
