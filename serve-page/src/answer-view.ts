import { download } from './api.ts';
import type { AnswerBody } from './api-types.ts';
import { run } from './banner.ts';
import { drawChart } from './chart-view.ts';
import { chooseChart } from './choose-chart.ts';
import { columnUnit } from './column-unit.ts';
import { coverageLines } from './coverage-lines.ts';
import { describeUsage } from './describe-usage.ts';
import { button, byId, create, display, renderTable } from './elements.ts';
import { openEvidence } from './evidence-view.ts';
import { pageState, rowTitle, tableDetail } from './page-state.ts';
import { browse } from './records-view.ts';
import { tableChoiceParts } from './table-choice-parts.ts';
import { showTrace } from './trace-view.ts';

/**
 * An answer as a person reads it: the sentence, the value with its unit, the coverage note in the
 * CLI's words with each dropped or outlying value a link to its evidence, the tables it rests on
 * (each a link to browse), the path and what it cost, the SQL, then the result — as a chart when it
 * is a group-by, ranking or series, the table one toggle away — each row a link to its records.
 */
export function renderAnswer(answer: AnswerBody): void {
  const target = byId('answer');
  const tables = answer.tables.map((name) => tableDetail(name)).filter((table) => table !== undefined);
  const units = answer.columns.map((column) => columnUnit(column, tables));
  const parts: Node[] = [create('p', answer.answer, 'answer')];
  if (answer.rows.length === 1 && answer.columns.length === 1 && units[0] && typeof answer.rows[0]![0] === 'number') {
    parts.push(create('p', display(answer.rows[0]![0], units[0]), 'value'));
  }
  const coverage = coverageLines(answer.coverage, rowTitle(answer.tables));
  if (coverage) {
    const note = create('div', undefined, 'coverage');
    note.append(create('strong', 'Coverage: '));
    for (const line of coverage) {
      const paragraph = create('p');
      for (const segment of line) {
        if ('text' in segment) paragraph.append(document.createTextNode(segment.text));
        else paragraph.append(button(`see its evidence in ${segment.evidence.document.split(/[\\/]/).pop()}`, () => void openEvidence({ document: segment.evidence.document, attribute: segment.evidence.column, table: tableHolding(answer, segment.evidence.column) }), 'link'));
      }
      note.append(paragraph);
    }
    parts.push(note);
  }
  const choice = create('p', undefined, 'tables');
  for (const part of tableChoiceParts(answer.tables, answer.joins, pageState.tables)) {
    choice.append('text' in part ? document.createTextNode(part.text) : button(part.table, () => void browse(part.table), 'link'));
  }
  parts.push(choice);
  parts.push(create('p', `${describePath(answer)} · ${describeUsage(answer.usage)}`, 'muted path'));
  if (answer.path === 'hybrid') {
    const list = create('ul', undefined, 'documents');
    for (const source of answer.documents ?? []) list.append(create('li', `read: ${source}`));
    for (const problem of answer.documentProblems ?? []) list.append(create('li', `not read: ${problem.message}`));
    parts.push(list);
  }
  const sql = create('pre', answer.sql, 'sql');
  sql.setAttribute('aria-label', 'the SQL the answer rests on');
  parts.push(sql);
  if (answer.cut?.rowsOmitted) parts.push(create('p', `The query returned more than ${answer.cut.maximumRows.toLocaleString('en-US')} rows: the first ${answer.cut.maximumRows.toLocaleString('en-US')} are shown and downloadable.`, 'muted'));
  if (answer.cut?.cellsShortened) parts.push(create('p', `${answer.cut.cellsShortened} long cells were cut to ${answer.cut.maximumCellCharacters.toLocaleString('en-US')} characters.`, 'muted'));
  parts.push(...resultParts(answer, units));
  const more = create('details');
  more.append(create('summary', 'the answer as JSON'), create('pre', JSON.stringify(answer, null, 2)));
  parts.push(more);
  target.replaceChildren(...parts);
}

/** The toolbar (chart or table, downloads, the records behind it all), the chart, the result table. */
function resultParts(answer: AnswerBody, units: ReadonlyArray<string | undefined>): Node[] {
  const id = encodeURIComponent(answer.id);
  const tools = create('div', undefined, 'result-tools');
  const chartChoice = chooseChart(answer.columns, answer.rows);
  const result = create('div', undefined, 'scroll');
  result.id = 'result';
  const table = create('table');
  table.setAttribute('aria-label', 'the result');
  result.append(table);
  renderTable(table, [{ title: '' }, ...answer.columns.map((column, index) => ({ title: column, ...(units[index] ? { note: `(${units[index]})` } : {}) }))],
    answer.rows.map((row) => [null, ...row]), (td, value, row, column) => {
      if (column > 0) return false;
      const open = button('records', () => void showTrace(answer, row), 'link trace-row');
      open.setAttribute('aria-label', `the records behind result row ${row + 1}`);
      td.append(open);
      return true;
    });
  const parts: Node[] = [tools];
  if (chartChoice) {
    const chart = create('figure');
    chart.id = 'chart';
    chart.append(drawChart(answer.columns, answer.rows, chartChoice, units, (row) => void showTrace(answer, row)));
    const views = create('span', undefined, 'toggle');
    views.setAttribute('role', 'group');
    views.setAttribute('aria-label', 'show the result as');
    const show = (asChart: boolean) => {
      chart.hidden = !asChart;
      result.hidden = asChart;
      chartButton.setAttribute('aria-pressed', String(asChart));
      tableButton.setAttribute('aria-pressed', String(!asChart));
    };
    const chartButton = button('Chart', () => show(true), 'secondary');
    const tableButton = button('Table', () => show(false), 'secondary');
    chartButton.id = 'show-chart';
    tableButton.id = 'show-table';
    views.append(chartButton, tableButton);
    tools.append(views);
    parts.push(chart);
    show(true);
  }
  const downloads = create('span', 'Download the result: ', 'downloads');
  downloads.append(
    button('CSV', () => void run(() => download(`/answers/${id}/result?format=csv`, 'srag-result.csv')), 'link'),
    create('span', ' · '),
    button('Parquet', () => void run(() => download(`/answers/${id}/result?format=parquet`, 'srag-result.parquet')), 'link'),
  );
  const records = create('span', ' Records behind it: ', 'downloads');
  const showAll = button('Show', () => void showTrace(answer), 'link');
  showAll.id = 'trace-answer';
  records.append(showAll);
  tools.append(downloads, records);
  parts.push(result);
  return parts;
}

/** The CLI's words for the path an answer took. */
function describePath(answer: AnswerBody): string {
  if (answer.path === 'sql') return 'Path: sql (the answer rests on the rows below)';
  const read = answer.documents?.length ?? 0;
  return `Path: hybrid (the answer was read from ${read} ${read === 1 ? 'document' : 'documents'} of the ${answer.selectedDocuments ?? 0} the SQL selected)`;
}

/** The one table of the answer that holds `column` and keeps its values' quotes (a child table's is found by the server). */
function tableHolding(answer: AnswerBody, column: string): string | undefined {
  const holding = answer.tables.map((name) => tableDetail(name)).filter((table) => table !== undefined && table.madeBy !== 'srag import' && table.attributes.some((attribute) => attribute.name === column));
  return holding.length === 1 && !holding[0]!.parent ? holding[0]!.name : undefined;
}
