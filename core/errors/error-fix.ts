/**
 * What a user can do about an error, as data: each edge (CLI, HTTP, SQL, Sheets, MCP) renders it
 * once, in its own words — `--table hotels` on the command line, `"table": "hotels"` over HTTP,
 * `srag_ask('…', 'hotels')` in SQL. The error's `hint` stays as the words for an edge that has no
 * rendering of its own.
 */
export type ErrorFix =
  /** Name one of these tables (the request named none, or one that is not there). */
  | { kind: 'name-table'; choices: string[] }
  /** Ask again with the schema extended for the question (attributes the table lacks are added and back-filled). */
  | { kind: 'extend-schema'; question: string; table?: string }
  /** Ask without the hybrid path: the answer comes from the SQL rows alone. */
  | { kind: 'answer-from-sql' }
  /** Tell srag what `model` costs (a JSON file of prices named by SRAG_PRICES): a spending limit needs its price. */
  | { kind: 'price-model'; model: string };
