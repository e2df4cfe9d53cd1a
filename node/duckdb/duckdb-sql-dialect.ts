/**
 * The dialect notes the text-to-SQL prompt carries for DuckDB (`SqlEngine.dialect`): what the
 * model must know to write one safe, correct DuckDB SELECT over a record table.
 */
export const duckDbSqlDialect = `DuckDB dialect notes:
- Write exactly one SELECT statement (WITH ... SELECT is fine). No DDL, no DML, no PRAGMA, no file functions.
- Quote column names with double quotes. Compare strings with the exact values listed in the statistics; use ILIKE for partial matches.
- NULL means the document did not state the value: aggregates skip NULLs; say \`IS NULL\` / \`IS NOT NULL\` explicitly when the question is about missing values.
- Dates are DATE values: use DATE 'YYYY-MM-DD' literals, year(d), month(d), date_diff('day', a, b).
- For "which ... has the most/least ...", use ORDER BY ... DESC/ASC LIMIT 1 and select the attributes the question asks for.
- \`_source\` holds each row's document path.
- Round only when the question asks for it.`;
