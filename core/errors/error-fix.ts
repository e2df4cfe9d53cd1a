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
  /**
   * Name one item of the document's list (`rooms[2].price_per_night`): a child table holds one value
   * per item. The choices name the items as the table of the documents takes them (or no table).
   */
  | { kind: 'name-item'; choices: string[] }
  /** Tell srag what `model` costs (a JSON file of prices named by SRAG_PRICES): a spending limit needs its price. */
  | { kind: 'price-model'; model: string }
  /** Give the table another name: `table` is taken or kept for srag's own; `drop` names the table that could be dropped instead, when srag may drop it. */
  | { kind: 'rename-table'; table: string; drop?: string }
  /** The database holds no table yet: make one from documents (or a file) first, or open the database that has them. */
  | { kind: 'add-a-table' };
