import type { AnswerBody, TableDetail } from './api-types.ts';

/** What the page knows between requests: the database's tables, and the answer on screen. */
export const pageState = {
  tables: [] as TableDetail[],
  answer: undefined as AnswerBody | undefined,
};

export function tableDetail(name: string | undefined): TableDetail | undefined {
  return name === undefined ? undefined : pageState.tables.find((table) => table.name.toLowerCase() === name.toLowerCase());
}

/** What a row of the answer's tables is called, as the CLI's coverage note says it: their titles, joined. */
export function rowTitle(tables: readonly string[]): string {
  return tables.map((name) => tableDetail(name)?.title ?? name).join(', ');
}
