import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { answerJson, type Answer } from '../../app/index.ts';
import type { Srag } from '../session/open-srag.ts';
import { edgeError } from './http-error.ts';
import type { KeptAnswers } from './kept-answers.ts';
import { anyJson, errorResponse, errorResponses, jsonBody, notFound, type ServeApp } from './route-parts.ts';

/** Records a download holds at most: the sandbox's bound on a result's rows. */
const maximumDownloadRows = 10_000;
const downloadTypes = { csv: 'text/csv; charset=utf-8', parquet: 'application/vnd.apache.parquet' } as const;
const answerParameters = z.object({ id: z.string().min(1).openapi({ description: 'the `id` POST /query gave the answer' }) });
const format = z.enum(['json', 'csv', 'parquet']).default('json');

/**
 * The question routes: POST /query answers through the one ask pipeline (`Srag.ask`, as `srag ask`,
 * tables chosen unless one is named) and keeps the answer under an id; the answer's result and the
 * records behind it (all, or one row's) are then read and downloaded by that id, never by SQL a
 * client sends.
 */
export function registerQueryRoutes(app: ServeApp, srag: Srag, answers: KeptAnswers): void {
  app.openapi(createRoute({
    method: 'post', path: '/query', summary: 'Answer a question: the model writes SQL, DuckDB computes, the answer cites the SQL (as `srag ask --json`, plus the answer\'s `id`)',
    request: {
      body: jsonBody(z.object({
        question: z.string().trim().min(1).max(4_000),
        table: z.string().min(1).optional().openapi({ description: 'the one table to answer from; without it the question chooses its tables among all, as srag ask does' }),
        hybrid: z.boolean().optional().openapi({ description: 'true: answer from the documents the SQL selects; false: from the SQL rows only; absent: the model decides (as srag ask --hybrid / --no-hybrid)' }),
        extend_schema: z.boolean().optional().openapi({ description: 'first add the attributes the question needs that the table lacks, extracting only them from every document with SRAG_EXTRACT_MODEL (as srag ask --extend-schema; never asks for confirmation: the response carries added_attributes, extraction_usage and backfill_estimate)' }),
      }).strict()),
    },
    responses: { 200: { description: 'the answer, its SQL and rows, as `srag ask --json` prints them, and `id`, by which /answers/{id}/… read its records and downloads', ...anyJson }, ...errorResponses, 422: errorResponse, 502: errorResponse, 503: errorResponse },
  }), async (context) => {
    const { question, table, hybrid, extend_schema: extendSchema } = context.req.valid('json');
    // A server has no one to ask: a back-fill over SRAG_CONFIRM_DOCUMENTS goes ahead, its estimate in the response.
    const answer = await srag.ask(question, { table, hybrid, ...(extendSchema ? { extend: {} } : {}) });
    return context.json({ id: answers.keep(answer), ...answerJson(answer) }, 200);
  });

  app.openapi(createRoute({
    method: 'get', path: '/answers/{id}/records', summary: 'The records an answer was computed from (the rows its FROM and WHERE keep), or with `row` those of one result row: its group for a GROUP BY, the row itself for a query without aggregates; selected in the sandbox from the answer\'s own SQL; as JSON, CSV or Parquet',
    request: {
      params: answerParameters,
      query: z.object({
        row: z.coerce.number().int().min(0).optional().openapi({ description: 'the result row (0 for the first); absent: every record the answer rests on' }),
        offset: z.coerce.number().int().min(0).default(0),
        limit: z.coerce.number().int().min(1).max(500).default(100).openapi({ description: 'records per page of JSON; a download holds up to 10,000' }),
        format,
      }),
    },
    responses: { 200: { description: '{answer, row, narrowing, note?, columns, rows, total, offset}, or {untraceable} when the records cannot be derived from the SQL alone; a CSV or Parquet file', ...anyJson }, ...errorResponses },
  }), async (context) => {
    const { id } = context.req.valid('param');
    const { row, offset, limit, format: wanted } = context.req.valid('query');
    const answer = answers.find(id);
    if (!answer) return context.json(unknownAnswer(id), 404);
    if (row !== undefined && row >= answer.rows.length) {
      const { status, body } = edgeError('INPUT_INVALID', `the answer's result has ${answer.rows.length} ${answer.rows.length === 1 ? 'row' : 'rows'}, not a row ${row}`, `pass a row from 0 to ${Math.max(0, answer.rows.length - 1)}, or none for every record`);
      return context.json(body, status as 400);
    }
    const download = wanted !== 'json';
    const traced = await srag.traceRecords(answer, { row, offset: download ? 0 : offset, limit: download ? maximumDownloadRows : limit });
    if ('untraceable' in traced) {
      if (download) return context.json(notFound(`the records behind this answer cannot be derived from its SQL: ${traced.untraceable}`, 'download the result instead'), 404);
      return context.json({ answer: id, row: row ?? null, untraceable: traced.untraceable }, 200);
    }
    if (download) return sendFile(context, await srag.writeRows({ columns: traced.columns.map((column) => column.name), rows: traced.rows }, wanted), wanted, `records${row === undefined ? '' : `-row-${row + 1}`}`);
    return context.json({ answer: id, row: row ?? null, ...traced, offset }, 200);
  });

  app.openapi(createRoute({
    method: 'get', path: '/answers/{id}/result', summary: 'An answer\'s result as CSV or Parquet, written by DuckDB: the rows POST /query returned (at most 10,000)',
    request: { params: answerParameters, query: z.object({ format: z.enum(['csv', 'parquet']).default('csv') }) },
    responses: { 200: { description: 'the file' }, ...errorResponses },
  }), async (context) => {
    const { id } = context.req.valid('param');
    const answer: Answer | undefined = answers.find(id);
    if (!answer) return context.json(unknownAnswer(id), 404);
    const wanted = context.req.valid('query').format;
    return sendFile(context, await srag.writeRows({ columns: answer.columns, rows: answer.rows }, wanted), wanted, 'result');
  });
}

function unknownAnswer(id: string) {
  return notFound(`no answer ${id} on this server (it keeps the answers of its last questions while it runs)`, 'ask the question again with POST /query');
}

/** A download: the file under a name that says what it holds. The route's typed responses describe JSON only, hence the cast. */
function sendFile(context: Context, bytes: Uint8Array, wanted: keyof typeof downloadTypes, name: string): never {
  return context.body(new Uint8Array(bytes), 200, {
    'content-type': downloadTypes[wanted],
    'content-disposition': `attachment; filename="srag-${name}.${wanted}"`,
  }) as never;
}
