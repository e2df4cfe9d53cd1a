/** Words that end an expression or a FROM item, so they are never taken as a bare alias. */
export const reservedWords = new Set([
  'SELECT', 'FROM', 'WHERE', 'GROUP', 'BY', 'HAVING', 'ORDER', 'LIMIT', 'OFFSET', 'UNION', 'INTERSECT', 'EXCEPT',
  'JOIN', 'INNER', 'LEFT', 'RIGHT', 'FULL', 'OUTER', 'CROSS', 'NATURAL', 'ON', 'USING', 'AND', 'OR', 'NOT', 'AS',
  'ASC', 'DESC', 'NULLS', 'WHEN', 'THEN', 'ELSE', 'END', 'IS', 'IN', 'BETWEEN', 'LIKE', 'ILIKE', 'ESCAPE', 'WITH',
  'QUALIFY', 'WINDOW', 'OVER', 'FILTER', 'DISTINCT', 'ALL', 'CASE', 'INTO', 'LATERAL', 'SIMILAR', 'GLOB',
]);

/** Statements DuckDB would run that are not queries; named in the refusal. */
export const statementWords = new Set([
  'INSERT', 'UPDATE', 'DELETE', 'CREATE', 'DROP', 'ALTER', 'COPY', 'ATTACH', 'DETACH', 'PRAGMA', 'SET', 'RESET',
  'INSTALL', 'LOAD', 'EXPORT', 'IMPORT', 'CALL', 'EXECUTE', 'PREPARE', 'VACUUM', 'CHECKPOINT', 'BEGIN', 'COMMIT',
  'ROLLBACK', 'TRUNCATE', 'USE', 'MERGE', 'GRANT', 'REVOKE', 'DESCRIBE', 'SHOW', 'SUMMARIZE', 'EXPLAIN', 'UPSERT',
]);
