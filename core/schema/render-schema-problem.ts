import type { SchemaProblem } from './schema-problem.ts';

/** Where a problem is: `property "price", key "unit"`, `entity "rooms", property "price"`, `key "title"`, or else `source` itself. */
function subjectOf(problem: SchemaProblem, source: string): string {
  const parts = [
    problem.entity !== undefined ? `entity "${problem.entity}"` : undefined,
    problem.property !== undefined ? `property "${problem.property}"` : undefined,
    problem.key !== undefined ? `key "${problem.key}"` : undefined,
  ].filter((part) => part !== undefined);
  return parts.length > 0 ? parts.join(', ') : source;
}

/**
 * The only place schema problems become text: `property "price", key "unit" is "furlongs", … —
 * use one of mm, cm, m, km`. Without `withFix` the part after the dash is left out.
 */
export function renderSchemaProblem(problem: SchemaProblem, source: string, { withFix = true }: { withFix?: boolean } = {}): string {
  const statement = `${subjectOf(problem, source)} ${problem.problem}`;
  return withFix ? `${statement} — ${problem.fix}` : statement;
}

/**
 * An error message and hint for a schema's problems: one problem reads as one sentence with its fix
 * as the hint; several are listed, each with its own fix.
 */
export function describeSchemaProblems(source: string, problems: SchemaProblem[]): { message: string; hint?: string } {
  if (problems.length === 1) {
    const [problem] = problems as [SchemaProblem];
    const statement = renderSchemaProblem(problem, source, { withFix: false });
    return { message: statement.startsWith(source) ? statement : `${source}: ${statement}`, hint: problem.fix };
  }
  return { message: `${source} has ${problems.length} problems: ${problems.map((problem) => renderSchemaProblem(problem, source)).join('; ')}` };
}
