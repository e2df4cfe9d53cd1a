import { sqlFailure } from '../sql-failure.ts';
import type { TableReference } from '../syntax/sql-syntax.ts';
import type { EvaluationContext } from './evaluation-context.ts';
import { joinRelations } from './join-relations.ts';
import type { QueryRun } from './query-run.ts';
import { rangeTableFunction } from './range-table-function.ts';
import type { Relation } from './relation.ts';

/** The relation a FROM item stands for; its columns are qualified by the alias or table name. */
export function evaluateFrom(run: QueryRun, reference: TableReference, outer: EvaluationContext | undefined, ctes: Map<string, Relation>, level: number): Relation {
  switch (reference.type) {
    case 'table': {
      const relation = ctes.get(reference.name) ?? run.tables.get(reference.name);
      if (!relation) {
        return sqlFailure(`Catalog Error: Table with name ${reference.name} does not exist! Tables here: ${[...run.tables.keys(), ...ctes.keys()].join(', ')}`);
      }
      const qualifier = reference.alias ?? reference.name;
      run.budget.work(relation.rows.length);
      return { columns: relation.columns.map((column) => ({ name: column.name, type: column.type, table: qualifier })), rows: relation.rows };
    }
    case 'subquery': {
      const relation = run.runStatement(reference.query, outer, ctes);
      return { columns: relation.columns.map((column) => ({ name: column.name, type: column.type, table: reference.alias })), rows: relation.rows };
    }
    case 'tableFunction':
      return rangeTableFunction(run, reference, { columns: [], row: [], level, outer, ctes });
    case 'join': {
      const left = evaluateFrom(run, reference.left, outer, ctes, level);
      const right = evaluateFrom(run, reference.right, outer, ctes, level);
      return joinRelations(run, reference, left, right, { columns: [], row: [], level, outer, ctes });
    }
  }
}
