import type { ErrorFix } from '../index.ts';

/**
 * An error's fix in MCP's words: the tool to call and the argument to pass, as an assistant calls
 * them (`"table": "hotels"`), where the CLI says `--table hotels` and HTTP a body field.
 */
export function renderFixForMcp(fix: ErrorFix): string {
  switch (fix.kind) {
    case 'name-table':
      return `call again with the argument "table" set to one of: ${fix.choices.slice(0, 10).map((choice) => JSON.stringify(choice)).join(', ')}${fix.choices.length > 10 ? ', …' : ''}`;
    case 'extend-schema':
      return `add them (extracting only them from every document) with the tool extend_schema and the arguments ${JSON.stringify({ question: fix.question, ...(fix.table ? { table: fix.table } : {}) })}: it first says what it would add and cost, then runs with "confirm": true`;
    case 'answer-from-sql':
      return 'call again without the argument "hybrid" (or with "hybrid": false)';
    case 'price-model':
      return `the server's SRAG_PRICES must name a JSON file of prices holding {${JSON.stringify(fix.model)}: {"input": …, "cached_input": …, "output": …}} in USD per million tokens`;
  }
}
