import { sqlFailure } from '../sql-failure.ts';
import type { SelectStatement } from '../syntax/sql-syntax.ts';

/**
 * How deep a syntax tree may nest, counted in its objects and lists. Evaluation recurses through
 * the tree, so a chain such as `1+1+1+…` ten thousand terms long, which the parser reads in a loop,
 * would overflow the call stack there; it is refused here instead. Generated queries nest a few
 * dozen levels; DuckDB's own limit is 1,000 expression levels.
 */
export const maximumTreeDepth = 500;

/** Refuses a statement whose tree nests deeper than `maximumTreeDepth`, walking it without recursion. */
export function checkNestingDepth(statement: SelectStatement): void {
  const pending: Array<{ node: object; depth: number }> = [{ node: statement, depth: 0 }];
  while (pending.length) {
    const { node, depth } = pending.pop()!;
    if (depth > maximumTreeDepth) {
      sqlFailure(`Parser Error: the query nests more than ${maximumTreeDepth} levels deep (long chains of operators count as nesting); write it flatter, for example with IN (…) or a CTE`);
    }
    for (const child of Object.values(node)) {
      if (typeof child === 'object' && child !== null) pending.push({ node: child, depth: depth + 1 });
    }
  }
}
