-- A dbt-style batch job over the hotels sample: extract, materialize, aggregate, export.
-- Run it from the repository root (what it writes goes to examples/output/, which git ignores):
--   npx srag run examples/batch.sql --db examples/output/hotels.duckdb
-- Running it again costs no model call: every reply is in the database's response cache.

-- 1. Extract and materialize: one typed row per page, read by the model once.
CREATE OR REPLACE TABLE hotels AS
SELECT * FROM srag_extract('examples/hotels/docs/*', schema := 'examples/hotels/schema.json');

-- 2. Check: pages that could not be extracted (every attribute NULL, _error says why).
SELECT filename, _error FROM hotels WHERE _error IS NOT NULL;

-- 3. Aggregate into a model of its own, with plain SQL.
CREATE OR REPLACE TABLE hotels_by_country AS
SELECT
  country,
  count(*) AS hotels,
  round(avg(price_per_night), 2) AS average_price_usd,
  round(avg(guest_rating), 2) AS average_guest_rating,
  count(*) FILTER (WHERE has_pool) AS with_pool
FROM hotels
WHERE _error IS NULL
GROUP BY country
ORDER BY hotels DESC, country;

SELECT * FROM hotels_by_country;

-- 4. A question in plain words, answered by SQL over the table (the SQL comes with the answer).
SELECT answer, sql FROM srag_ask('How many hotels are in Spain?', 'hotels');

-- 5. Export for downstream tools (pandas, polars, Spark, a BI tool).
COPY hotels TO 'examples/output/hotels.parquet' (FORMAT parquet);
COPY hotels_by_country TO 'examples/output/hotels_by_country.parquet' (FORMAT parquet);

-- 6. What the job cost.
SELECT * FROM srag_usage();
