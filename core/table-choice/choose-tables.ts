import { SragError } from '../errors/srag-error.ts';
import type { CatalogTable } from './catalog-table.ts';
import { matchQuestionTerms, type QuestionTerm } from './match-question-terms.ts';
import { questionPhrases, textWords } from './question-phrases.ts';
import { solveTableSet } from './solve-table-set.ts';
import { stopWords } from './stop-words.ts';
import type { TableCatalog } from './table-catalog.ts';
import type { TableLink } from './table-link.ts';

export interface ChooseTablesOptions {
  question: string;
  catalog: TableCatalog;
  /** Tables kept after ranking, before the solver; linked tables of the best few join them as bridges. */
  maximumCandidates?: number;
  /** Largest set of tables one question is answered from. */
  maximumTables?: number;
}

export interface TableChoice {
  tables: CatalogTable[];
  /** How the chosen tables join: one link per pair the SQL may join on (none for one table). */
  joins: TableLink[];
  /** The question's words that pointed at tables, with what they matched. */
  terms: QuestionTerm[];
  /** Weighted share of those words the chosen tables cover, 0–1. */
  coverage: number;
}

/** Top-ranked tables whose linked tables are added as possible bridges. */
const bridgeSources = 4;
const maximumBridges = 8;

/**
 * Question → the tables it needs (the ARM paper, with lexical alignment and an exact solver):
 * the question's words and phrases are matched against table and column names, descriptions and
 * column values; tables are ranked by matched weight; the best candidates and the tables linked
 * to the best few (bridges) go to `solveTableSet`, which picks the fewest connected tables that
 * cover the question. A database with one table answers every question from it.
 */
export async function chooseTables({ question, catalog, maximumCandidates = 12, maximumTables = 3 }: ChooseTablesOptions): Promise<TableChoice> {
  const tables = await catalog.tables();
  if (tables.length === 0) {
    throw new SragError({ code: 'TABLE_NOT_FOUND', message: 'the database holds no table to answer from', hint: 'put documents (or a file) into it first, or open the database that holds them', fix: { kind: 'add-a-table' } });
  }
  if (tables.length === 1) return { tables, joins: [], terms: [], coverage: 1 };
  const phrases = questionPhrases(question).filter((phrase) => textWords(phrase).some((word) => !stopWords.has(word)));
  const mentions = await catalog.findValues(phrases);
  const terms = matchQuestionTerms(question, tables, mentions);
  const relevance = new Map<string, number>();
  for (const term of terms) {
    for (const [table, hit] of term.hits) relevance.set(table, (relevance.get(table) ?? 0) + term.weight * hit.strength);
  }
  const ranked = [...relevance.entries()].sort((left, right) => right[1] - left[1] || (left[0] < right[0] ? -1 : 1)).map(([table]) => table);
  if (ranked.length === 0) {
    throw new SragError({
      code: 'TABLE_NOT_FOUND',
      message: `no table matches the words of the question "${question}"`,
      hint: `name the table, one of: ${tables.slice(0, 10).map((table) => table.name).join(', ')}${tables.length > 10 ? ', …' : ''}`,
      fix: { kind: 'name-table', choices: tables.map((table) => table.name) },
    });
  }
  const candidates = ranked.slice(0, maximumCandidates);
  const links = await catalog.links(candidates);
  const chosen = new Set(candidates);
  const bridges: string[] = [];
  for (const source of ranked.slice(0, bridgeSources)) {
    for (const link of links) {
      const other = link.table === source ? link.otherTable : link.otherTable === source ? link.table : undefined;
      if (other !== undefined && !chosen.has(other) && bridges.length < maximumBridges) {
        chosen.add(other);
        bridges.push(other);
      }
    }
  }
  const parents = new Map(tables.flatMap((table) => (table.parent ? [[table.name, table.parent.table] as const] : [])));
  // A child's parent is always a candidate: the two join on a declared key.
  for (const child of [...candidates]) {
    const parent = parents.get(child);
    if (parent !== undefined && !chosen.has(parent)) {
      chosen.add(parent);
      bridges.push(parent);
    }
  }
  const solution = solveTableSet({ terms, links, candidates: [...candidates, ...bridges], maximumTables, parents });
  const byName = new Map(tables.map((table) => [table.name, table]));
  return { tables: solution.tables.map((name) => byName.get(name)!), joins: solution.joins, terms, coverage: solution.coverage };
}
