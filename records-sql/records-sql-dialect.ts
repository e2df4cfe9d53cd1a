/**
 * The dialect notes the text-to-SQL prompt carries for this engine (`SqlEngine.dialect`): the
 * subset of DuckDB's SQL that runs here, in words for the model. A function or clause named here
 * must run; the conformance suite (tests/records-sql/) checks the ones the gold questions use.
 */
export const recordsSqlDialect = `SQL dialect notes (a subset of DuckDB SQL, evaluated inside the spreadsheet; nothing outside this list runs):
- Write exactly one SELECT statement (WITH ... SELECT, UNION, subqueries and joins of the table with itself are fine). No DDL, no DML, no PRAGMA, no file or table functions, no window functions (OVER, QUALIFY).
- Quote column names with double quotes. Compare strings with the exact values listed in the statistics; use ILIKE for partial matches (LIKE and ILIKE take % and _).
- NULL means the document did not state the value: aggregates skip NULLs; say \`IS NULL\` / \`IS NOT NULL\` explicitly when the question is about missing values.
- Dates are DATE values: use DATE 'YYYY-MM-DD' literals, year(d), month(d), day(d), date_diff('day', a, b), date_part('year', d), strftime(d, '%Y-%m'); a date minus a date is a number of days.
- Functions available: count, count(DISTINCT x), sum, avg, min, max, median, mode, stddev, arg_max(x, y), arg_min(x, y), string_agg(x, ', '), round, abs, floor, ceil, coalesce, nullif, greatest, least, lower, upper, length, trim, concat, replace, substring, contains, starts_with, printf, CASE, CAST, IN, BETWEEN.
- printf is typed as in DuckDB: %d takes integers, %.2f takes DOUBLE values such as avg(...), %s takes text.
- For "which ... has the most/least ...", use ORDER BY ... DESC/ASC LIMIT 1 and select the attributes the question asks for.
- \`_source\` holds each row's document id.
- Round only when the question asks for it.`;
