import { getJson } from './api.ts';
import type { DocumentBody, WhyBody } from './api-types.ts';
import { run } from './banner.ts';
import { byId, create, display } from './elements.ts';
import { tableDetail } from './page-state.ts';

/** A value to explain: its document, its attribute (`price_per_night[2]` for a child table's item) and, when known, its table. */
export interface EvidenceRequest {
  document: string;
  attribute: string;
  table?: string;
}

/**
 * Opens a value's evidence beside the records: its status, what the model returned, the quote, and
 * the document as the model read it with the quote highlighted. An error's fix stays one click
 * away: a list item to name (a child table's value asked without its item), or a table to name.
 */
export function openEvidence(request: EvidenceRequest): Promise<void> {
  return run(() => showEvidence(request), (fix, value) => {
    // The items are named as the table of the documents takes them: a child table's parent, or the table asked of.
    if (fix.kind === 'name-item') void openEvidence({ document: request.document, attribute: value, table: tableDetail(request.table)?.parent ?? request.table });
    if (fix.kind === 'name-table') void openEvidence({ ...request, table: value });
  }).then(() => undefined);
}

async function showEvidence({ document: source, attribute, table }: EvidenceRequest): Promise<void> {
  const section = byId('evidence');
  section.replaceChildren(create('h2', 'Evidence'), create('p', `Reading the evidence of ${attribute}…`, 'muted'));
  const query = (parameters: Record<string, string | undefined>) => new URLSearchParams(Object.entries(parameters).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString();
  try {
    const why = await getJson<WhyBody>(`/why?${query({ table, document: source, attribute })}`);
    const facts = create('dl');
    const fact = (name: string, value: string, className?: string) => facts.append(create('dt', name), create('dd', value, className));
    fact('table', why.table);
    fact('attribute', why.attribute);
    fact('value', display(why.value));
    fact('status', why.status, `status-${why.status}`);
    fact('model returned', why.raw ?? '—');
    fact('quote', why.quote ?? (why.status === 'unchecked' ? 'none (ingested without evidence)' : 'none'));
    if (why.reason) fact('reason', why.reason);
    section.replaceChildren(create('h2', 'Evidence'), facts);
    const shown = await getJson<DocumentBody>(`/document?${query({ table: why.table, source: why.source, quote: why.quote ?? undefined })}`);
    const text = create('div');
    text.id = 'document-text';
    text.tabIndex = 0;
    text.setAttribute('aria-label', `the text of ${shown.label}`);
    let position = 0;
    for (const span of shown.spans) {
      text.append(document.createTextNode(shown.text.slice(position, span.start)), create('mark', shown.text.slice(span.start, span.end)));
      position = span.end;
    }
    text.append(document.createTextNode(shown.text.slice(position)));
    section.append(create('h3', shown.label), text);
    if (why.quote && shown.spans.length === 0) section.append(create('p', 'The quote was not found word for word in the text.', 'muted'));
    // The quote is scrolled into the middle of the text's own box; the page itself stays where the reader is.
    const mark = text.querySelector('mark');
    if (mark) text.scrollTop = Math.max(0, mark.offsetTop - text.clientHeight / 2);
  } catch (error) {
    // Nothing of an earlier value stays under this one's heading: the banner says what failed.
    section.replaceChildren(create('h2', 'Evidence'), create('p', `No evidence shown for ${attribute}.`, 'muted'));
    throw error;
  }
}

/** A value that opens its evidence: a button in its cell, so it is reached by Tab and opened by Enter. */
export function evidenceButton(text: string, request: EvidenceRequest): HTMLButtonElement {
  const node = create('button', text, 'cell');
  node.type = 'button';
  node.dataset.table = request.table ?? '';
  node.dataset.source = request.document;
  node.dataset.attribute = request.attribute;
  node.setAttribute('aria-label', `${request.attribute} of ${request.document.split(/[\\/]/).pop()}: ${text} — open its evidence`);
  node.addEventListener('click', () => {
    for (const selected of document.querySelectorAll('button.cell.selected')) selected.classList.remove('selected');
    node.classList.add('selected');
    void openEvidence(request);
  });
  return node;
}
