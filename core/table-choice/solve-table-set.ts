import type { QuestionTerm } from './match-question-terms.ts';
import { linkStrength, type TableLink } from './table-link.ts';

export interface TableSetSolution {
  tables: string[];
  /**
   * The links that connect `tables`: for each pair of a spanning tree, up to three links, those on
   * columns the question names first, then by strength; empty for one table.
   */
  joins: TableLink[];
  /** Weighted share of the question's terms the set covers, 0–1. */
  coverage: number;
}

export interface SolveTableSetOptions {
  terms: QuestionTerm[];
  links: TableLink[];
  /** Tables considered, best first (the candidates of information alignment). */
  candidates: string[];
  /** Largest set tried; the ARM paper's questions need at most a handful of objects. */
  maximumTables?: number;
  /**
   * What an extra table must add to the covered weight to be worth it: a table that covers nothing
   * new only widens the prompt and the sandbox.
   */
  tablePenalty?: number;
  /**
   * Child entities' tables and their parents (`CatalogTable.parent`): a parent joined to its child
   * in the set costs a third of `tablePenalty`, since its columns are facts of the very documents
   * that list the items and the join is declared, exact and cheap ("the cheapest room in Porto"
   * reads the city from the hotel row).
   */
  parents?: ReadonlyMap<string, string>;
}

/**
 * The structure-alignment step of the ARM paper, as a tiny exact search instead of its
 * mixed-integer program: among connected sets of up to `maximumTables` candidates, the one that
 * covers the most question-term weight (each term counts once, at its best hit in the set), less
 * `tablePenalty` per extra table; ties go to fewer tables, then stronger joins, then the earlier
 * candidates. Connected means the set's tables and its links form one component, so one SQL
 * query can join them. With 20 candidates and 3 tables that is under 1,400 sets: exhaustive, fast,
 * and never stuck in a local optimum.
 */
export function solveTableSet({ terms, links, candidates, maximumTables = 3, tablePenalty = 0.75, parents = new Map() }: SolveTableSetOptions): TableSetSolution {
  const rank = new Map(candidates.map((table, index) => [table, index]));
  // Between two tables, links on columns the question names come first ("won" names `champion`):
  // `hotels.country = world_cup_tournament.champion` before the stronger overlap with `fourth_place`.
  const named = new Map<string, number>();
  for (const term of terms) {
    for (const [table, hit] of term.hits) {
      if (hit.column) named.set(`${table}.${hit.column}`, (named.get(`${table}.${hit.column}`) ?? 0) + term.weight * hit.strength);
    }
  }
  const preference = (link: TableLink) => linkStrength(link) + (named.get(`${link.table}.${link.column}`) ?? 0) + (named.get(`${link.otherTable}.${link.otherColumn}`) ?? 0);
  // Links come in both directions (containment differs); a pair of columns is offered once, in its stronger direction.
  const byColumns = new Map<string, TableLink>();
  for (const link of links) {
    if (!rank.has(link.table) || !rank.has(link.otherTable) || link.table === link.otherTable) continue;
    const key = pairKey(`${link.table}.${link.column}`, `${link.otherTable}.${link.otherColumn}`);
    const known = byColumns.get(key);
    if (!known || linkStrength(link) > linkStrength(known)) byColumns.set(key, link);
  }
  const pairLinks = new Map<string, TableLink[]>();
  for (const link of byColumns.values()) {
    const key = pairKey(link.table, link.otherTable);
    pairLinks.set(key, [...(pairLinks.get(key) ?? []), link]);
  }
  const bestLink = new Map<string, TableLink>();
  for (const [key, candidatesOfPair] of pairLinks) {
    candidatesOfPair.sort((left, right) => preference(right) - preference(left));
    bestLink.set(key, candidatesOfPair[0]!);
  }
  const totalWeight = terms.reduce((sum, term) => sum + term.weight, 0) || 1;
  let best: { tables: string[]; score: number; joins: TableLink[]; covered: number; joinStrength: number; rankSum: number } | undefined;
  const consider = (tables: string[]) => {
    const joins = spanningJoins(tables, bestLink);
    if (!joins) return;
    const covered = terms.reduce((sum, term) => sum + term.weight * Math.max(0, ...tables.map((table) => term.hits.get(table)?.strength ?? 0)), 0);
    const joinedParents = tables.filter((table) => tables.some((other) => parents.get(other) === table)).length;
    const score = covered - tablePenalty * (tables.length - 1 - (2 / 3) * Math.min(joinedParents, tables.length - 1));
    const joinStrength = joins.reduce((sum, link) => sum + linkStrength(link), 0);
    const rankSum = tables.reduce((sum, table) => sum + rank.get(table)!, 0);
    const better = !best
      || score > best.score + 1e-9
      || (Math.abs(score - best.score) <= 1e-9 && (tables.length < best.tables.length
        || (tables.length === best.tables.length && (joinStrength > best.joinStrength + 1e-9
          || (Math.abs(joinStrength - best.joinStrength) <= 1e-9 && rankSum < best.rankSum)))));
    if (better) best = { tables, score, joins, covered, joinStrength, rankSum };
  };
  const choose = (start: number, chosen: string[]) => {
    if (chosen.length > 0) consider(chosen);
    if (chosen.length === maximumTables) return;
    for (let index = start; index < candidates.length; index += 1) choose(index + 1, [...chosen, candidates[index]!]);
  };
  choose(0, []);
  if (!best) return { tables: [], joins: [], coverage: 0 };
  // Each joined pair offers its few best links: where tables meet on several columns (a country as
  // host, champion or fourth place), the question decides which one the SQL joins on.
  const joins = best.joins.flatMap((join) => pairLinks.get(pairKey(join.table, join.otherTable))!.slice(0, linksPerPair));
  return { tables: best.tables, joins, coverage: best.covered / totalWeight };
}

/** Links shown per joined pair of tables, best first. */
const linksPerPair = 3;

function pairKey(left: string, right: string): string {
  return left < right ? `${left}\u0000${right}` : `${right}\u0000${left}`;
}

/** The strongest links that connect all of `tables` (Kruskal), or undefined when they cannot all be joined. */
function spanningJoins(tables: string[], bestLink: Map<string, TableLink>): TableLink[] | undefined {
  if (tables.length === 1) return [];
  const available: TableLink[] = [];
  for (let left = 0; left < tables.length; left += 1) {
    for (let right = left + 1; right < tables.length; right += 1) {
      const link = bestLink.get(pairKey(tables[left]!, tables[right]!));
      if (link) available.push(link);
    }
  }
  available.sort((first, second) => linkStrength(second) - linkStrength(first));
  const component = new Map(tables.map((table) => [table, table]));
  const root = (table: string): string => {
    let current = table;
    while (component.get(current) !== current) current = component.get(current)!;
    return current;
  };
  const joins: TableLink[] = [];
  for (const link of available) {
    const [left, right] = [root(link.table), root(link.otherTable)];
    if (left === right) continue;
    component.set(left, right);
    joins.push(link);
  }
  return joins.length === tables.length - 1 ? joins : undefined;
}
