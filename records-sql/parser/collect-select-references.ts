import type { ParsedSelect } from '../sql-engine-port.ts';
import type { Expression, QueryBody, SelectStatement, TableReference } from '../syntax/sql-syntax.ts';

/** The base tables (without CTE names), table functions and functions a parsed SELECT names. */
export function collectSelectReferences(statement: SelectStatement): ParsedSelect {
  const tables = new Set<string>();
  const cteNames = new Set<string>();
  const tableFunctions = new Set<string>();
  const functions = new Set<string>();

  const visitStatement = (query: SelectStatement): void => {
    for (const cte of query.with) {
      cteNames.add(cte.name);
      visitStatement(cte.query);
    }
    visitBody(query.body);
    for (const item of query.orderBy) visitExpression(item.expression);
  };
  const visitBody = (body: QueryBody): void => {
    if (body.type === 'setOperation') {
      visitBody(body.left);
      visitBody(body.right);
      return;
    }
    for (const item of body.items) if (item.type === 'expression') visitExpression(item.expression);
    if (body.from) visitTable(body.from);
    if (body.where) visitExpression(body.where);
    if (Array.isArray(body.groupBy)) body.groupBy.forEach(visitExpression);
    if (body.having) visitExpression(body.having);
  };
  const visitTable = (reference: TableReference): void => {
    switch (reference.type) {
      case 'table': tables.add(reference.name); break;
      case 'subquery': visitStatement(reference.query); break;
      case 'tableFunction': tableFunctions.add(reference.name); reference.args.forEach(visitExpression); break;
      case 'join': visitTable(reference.left); visitTable(reference.right); if (reference.on) visitExpression(reference.on); break;
    }
  };
  const visitExpression = (expression: Expression): void => {
    switch (expression.type) {
      case 'function':
        functions.add(expression.name);
        expression.args.forEach(visitExpression);
        if (expression.filter) visitExpression(expression.filter);
        return;
      case 'subquery': case 'exists': visitStatement(expression.query); return;
      case 'inSubquery': visitExpression(expression.operand); visitStatement(expression.query); return;
      default:
        for (const value of Object.values(expression)) {
          if (Array.isArray(value)) value.forEach((element) => visitChild(element));
          else visitChild(value);
        }
    }
  };
  const visitChild = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    if ('type' in value && typeof (value as { type: unknown }).type === 'string') visitExpression(value as Expression);
    else if ('when' in value) {
      const branch = value as unknown as { when: Expression; then: Expression };
      visitExpression(branch.when);
      visitExpression(branch.then);
    }
  };

  visitStatement(statement);
  return { tables: [...tables].filter((table) => !cteNames.has(table)), tableFunctions: [...tableFunctions], functions: [...functions] };
}
