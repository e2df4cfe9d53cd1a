import type { DuckDBConnection } from '@duckdb/node-api';
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { readFileSync } from 'node:fs';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { streamSSE } from 'hono/streaming';
import { documentText, recordSchemaToJsonSchema, SragError } from '../../core/index.ts';
import { answerJson, ask, findRecordTable, onlyRecordTable, type RecordTable } from '../../app/index.ts';
import { sessionAskPorts } from '../session/session-ask-ports.ts';
import { embedderLoader } from '../session/embedder-loader.ts';
import { contentHashMissing, keptContentHash, readRecordTables } from '../duckdb/catalog/read-record-tables.ts';
import { explainValue } from '../duckdb/explain-value.ts';
import { friendlyPath } from '../runtime/friendly-path.ts';
import { hashText } from '../runtime/hash-text.ts';
import type { Session } from '../session/open-session.ts';
import { quoteIdentifier } from '../duckdb/quote-identifier.ts';
import { readDocumentFile } from '../runtime/read-document-file.ts';
import { readSqlResult } from '../duckdb/read-sql-result.ts';
import { readTableStats } from '../duckdb/read-table-stats.ts';
import { edgeError, httpError } from './http-error.ts';
import type { IngestJob, IngestJobs } from './ingest-jobs.ts';
import { ingestRequestBody } from './ingest-request.ts';
import { findExtractedDocument, extractedRowsFilter, type ServedTable } from './extracted-document.ts';
import { locateQuote } from './locate-quote.ts';
import { tokenMatches } from './token-matches.ts';

export interface ServeAppOptions {
  session: Session;
  jobs: IngestJobs;
  /** A connection for reads of its own, so a read never lands inside an ingest's transaction. */
  openReader: () => Promise<DuckDBConnection>;
  /** Bearer token every API request must carry; undefined on loopback without `SRAG_SERVE_TOKEN`. */
  token?: string;
  /** Largest request body accepted, in bytes. */
  maximumBodyBytes?: number;
}

/** The page's files, shipped beside prompts/ (the package build rewrites this URL for dist/). */
const webDirectory = new URL('../../serve-page/', import.meta.url);
const webFile = (name: string) => readFileSync(new URL(name, webDirectory), 'utf8');
const tableQuery = z.object({ table: z.string().min(1).optional().openapi({ description: 'the table (needed when the database holds several)' }) });
const anyJson = { content: { 'application/json': { schema: z.any() } } };
const errorResponse = { description: '`{error: {code, message, hint}}`; the code is one of the CLI\'s', ...anyJson };
/** A required JSON request body checked by `schema`. */
const jsonBody = <T extends z.ZodType>(schema: T) => ({ required: true, content: { 'application/json': { schema } } });
const errorResponses = { 400: errorResponse, 401: errorResponse, 404: errorResponse };

/**
 * The HTTP edge of `srag serve` (seed API of the MVP plan: /query, /ingest, /schema, /stats, plus
 * /why, the evidence browser's /records and /document, and the web page at /). Requests are checked
 * against zod schemas, which also make the OpenAPI document at /openapi.json; every error leaves as
 * `{error: {code, message, hint}}` through `httpError`, the one table from code to status.
 */
export function createServeApp({ session, jobs, openReader, token, maximumBodyBytes = 1_000_000 }: ServeAppOptions): OpenAPIHono {
  const app = new OpenAPIHono({
    defaultHook: (result, context) => {
      if (result.success) return;
      const issue = result.error.issues[0];
      const where = issue && issue.path.length ? `${result.target} field "${issue.path.join('.')}"` : `the request ${result.target}`;
      const { status, body } = edgeError('INPUT_INVALID', `${where}: ${issue?.message ?? 'invalid'}`, 'see /openapi.json for the request shape');
      return context.json(body, status as 400);
    },
  });
  const loadEmbedder = embedderLoader(session);
  const withReader = async <T>(read: (connection: DuckDBConnection) => Promise<T>): Promise<T> => {
    const connection = await openReader();
    try {
      return await read(connection);
    } finally {
      connection.closeSync();
    }
  };

  app.onError((error, context) => {
    // The framework's own refusals (a body that is not JSON) are the client's input errors.
    if (error instanceof HTTPException && error.status < 500) {
      const { status, body } = edgeError('INPUT_INVALID', `the request was refused: ${error.message}`, 'send a JSON body as /openapi.json describes');
      return context.json(body, status as 400);
    }
    const { status, body } = httpError(error);
    return context.json(body, status as 500);
  });
  app.notFound((context) => {
    const { status, body } = edgeError('NOT_FOUND', `no such endpoint: ${context.req.method} ${new URL(context.req.url).pathname}`, 'see /openapi.json for the endpoints');
    return context.json(body, status as 404);
  });

  // Without a token the server listens on loopback only; a page elsewhere that renames itself to a
  // loopback address (DNS rebinding) still sends its own Host, which is refused here.
  app.use('*', async (context, next) => {
    const host = (context.req.header('host') ?? '').replace(/:\d+$/, '');
    if (token || ['localhost', '127.0.0.1', '[::1]'].includes(host)) return next();
    const { status, body } = edgeError('UNAUTHORIZED', `requests for host "${host}" need a token`, 'use http://127.0.0.1:PORT/, or start the server with SRAG_SERVE_TOKEN set');
    return context.json(body, status as 401);
  });
  // The page and the API description carry no data; everything else needs the token when there is one.
  app.get('/', (context) => context.html(webFile('index.html')));
  app.get('/app.js', (context) => context.body(webFile('app.js'), 200, { 'content-type': 'text/javascript; charset=utf-8' }));
  app.use('*', async (context, next) => {
    const path = new URL(context.req.url).pathname;
    if (!token || path === '/' || path === '/app.js' || path === '/openapi.json') return next();
    if (!tokenMatches(context.req.header('authorization'), token)) {
      const { status, body } = edgeError('UNAUTHORIZED', 'this server needs its token', 'send the header "Authorization: Bearer $SRAG_SERVE_TOKEN"');
      return context.json(body, status as 401, { 'www-authenticate': 'Bearer' });
    }
    return next();
  });
  app.use('*', bodyLimit({
    maxSize: maximumBodyBytes,
    onError: (context) => {
      const { status, body } = edgeError('PAYLOAD_TOO_LARGE', `the request body is larger than ${maximumBodyBytes} bytes`, 'send paths on the server, not document contents');
      return context.json(body, status as 413);
    },
  }));

  app.openapi(createRoute({
    method: 'post', path: '/query', summary: 'Answer a question: the model writes SQL, DuckDB computes, the answer cites the SQL (as `srag ask --json`)',
    request: {
      body: jsonBody(z.object({
        question: z.string().trim().min(1).max(4_000),
        table: z.string().min(1).optional(),
        hybrid: z.boolean().optional().openapi({ description: 'true: answer from the documents the SQL selects; false: from the SQL rows only; absent: the model decides (as srag ask --hybrid / --no-hybrid)' }),
        extend_schema: z.boolean().optional().openapi({ description: 'first add the attributes the question needs that the table lacks, extracting only them from every document with SRAG_EXTRACT_MODEL (as srag ask --extend-schema; never asks for confirmation: the response carries added_attributes, extraction_usage and backfill_estimate)' }),
      }).strict()),
    },
    responses: { 200: { description: 'the answer, its SQL and rows, as `srag ask --json` prints them', ...anyJson }, ...errorResponses, 422: errorResponse, 502: errorResponse, 503: errorResponse },
  }), async (context) => {
    const { question, table, hybrid, extend_schema: extendSchema } = context.req.valid('json');
    // A server has no one to ask: a back-fill over SRAG_CONFIRM_DOCUMENTS goes ahead, its estimate in the response.
    const answer = await withReader((connection) => ask(sessionAskPorts(session, connection, { loadEmbedder }), question, {
      table, hybrid, ...(extendSchema ? { extend: {} } : {}),
    }));
    return context.json(answerJson(answer), 200);
  });

  app.openapi(createRoute({
    method: 'post', path: '/ingest', summary: 'Start an ingest job: one record per document into the table; returns the job at once (a dry run answers its estimate instead)',
    request: { body: jsonBody(ingestRequestBody) },
    responses: { 200: { description: 'with dryRun: what the job would send and cost (as `srag ingest --dry-run --json`)', ...anyJson }, 202: { description: 'the job, queued', ...anyJson }, ...errorResponses },
  }), async (context) => {
    const body = context.req.valid('json');
    if (body.dryRun) return context.json(await jobs.estimate(body), 200);
    const job = await jobs.submit(body);
    return context.json(jobView(job), 202, { location: `/jobs/${job.id}` });
  });

  app.openapi(createRoute({
    method: 'get', path: '/jobs', summary: 'Every ingest job, newest first',
    responses: { 200: { description: 'the jobs', ...anyJson }, 401: errorResponse },
  }), (context) => context.json({ jobs: jobs.list().map(jobView) }, 200));

  const jobParameters = z.object({ id: z.string().min(1) });
  app.openapi(createRoute({
    method: 'get', path: '/jobs/{id}', summary: 'An ingest job: status, progress, and its summary when done',
    request: { params: jobParameters },
    responses: { 200: { description: 'the job', ...anyJson }, 401: errorResponse, 404: errorResponse },
  }), (context) => {
    const job = jobs.get(context.req.valid('param').id);
    if (!job) {
      const { status, body } = edgeError('NOT_FOUND', `no job ${context.req.valid('param').id}`, 'GET /jobs lists them');
      return context.json(body, status as 404);
    }
    return context.json(jobView(job), 200);
  });

  app.openapi(createRoute({
    method: 'get', path: '/jobs/{id}/events', summary: 'An ingest job\'s progress as server-sent events ("job" events, the last one when it ends)',
    request: { params: jobParameters },
    responses: { 200: { description: 'text/event-stream of job events' }, 401: errorResponse, 404: errorResponse },
  }), (context) => {
    const job = jobs.get(context.req.valid('param').id);
    if (!job) {
      const { status, body } = edgeError('NOT_FOUND', `no job ${context.req.valid('param').id}`, 'GET /jobs lists them');
      return context.json(body, status as 404);
    }
    return streamSSE(context, async (stream) => {
      const ended = (current: IngestJob) => current.status === 'done' || current.status === 'failed';
      let finish = () => {};
      const finished = new Promise<void>((resolve) => { finish = resolve; });
      let sending = Promise.resolve();
      const send = (current: IngestJob) => {
        sending = sending.then(() => stream.writeSSE({ event: 'job', data: JSON.stringify(jobView(current)) })).catch(() => finish());
        if (ended(current)) void sending.then(finish);
      };
      const unsubscribe = jobs.subscribe(job.id, send);
      stream.onAbort(() => finish());
      send(job);
      await finished;
      unsubscribe();
    }) as never;
  });

  app.openapi(createRoute({
    method: 'get', path: '/tables', summary: 'The record tables in the database',
    responses: { 200: { description: 'table names', ...anyJson }, 401: errorResponse },
  }), async (context) => {
    const tables = await withReader(readRecordTables);
    return context.json({ tables: tables.map((table) => table.name) }, 200);
  });

  /** The table a request names (or the only table of documents), whatever made it (app's record tables). */
  const namedTable = async (table: string | undefined): Promise<RecordTable> => {
    const tables = await withReader(readRecordTables);
    return table === undefined ? onlyRecordTable(tables, session.store.path) : findRecordTable(tables, table, session.store.path);
  };
  /** A table as `findExtractedDocument` reads it: a child entity's table keeps its documents in its parent's log. */
  const servedTable = (info: RecordTable): ServedTable => (info.madeBy === 'srag_extract'
    ? { table: info.name, evidenceName: info.evidence!.name, logTable: info.evidence!.name }
    : { table: info.name, logTable: info.parent?.table ?? info.name });

  app.openapi(createRoute({
    method: 'get', path: '/schema', summary: 'A table\'s record schema: attributes with kind, unit and description, and the JSON Schema',
    request: { query: tableQuery },
    responses: { 200: { description: 'the schema', ...anyJson }, ...errorResponses },
  }), async (context) => {
    const info = await namedTable(context.req.valid('query').table);
    return context.json({ table: info.name, title: info.schema.title, madeBy: info.madeBy, attributes: info.schema.attributes, jsonSchema: recordSchemaToJsonSchema(info.schema) }, 200);
  });

  app.openapi(createRoute({
    method: 'get', path: '/stats', summary: 'A table\'s rows, ingestion log counts and column statistics (as `srag stats --json`)',
    request: { query: tableQuery },
    responses: { 200: { description: 'the statistics', ...anyJson }, ...errorResponses },
  }), async (context) => {
    const { schema: _schema, ...stats } = await withReader((connection) => readTableStats(connection, context.req.valid('query').table, session.store.path));
    return context.json(stats, 200);
  });

  app.openapi(createRoute({
    method: 'get', path: '/why', summary: 'Where a value came from: the quote, the raw model value, its status and reason (as `srag why`)',
    request: {
      query: tableQuery.extend({
        document: z.string().min(1).openapi({ description: 'the document as ingested, or a unique part of its path' }),
        attribute: z.string().min(1),
      }),
    },
    responses: { 200: { description: 'the evidence', ...anyJson }, ...errorResponses },
  }), async (context) => {
    const { document, attribute, table } = context.req.valid('query');
    const explanation = await withReader(async (connection) => {
      const explained = await explainValue(connection, { document, attribute, table, database: session.store.path });
      // Evidence is kept for what the model read; a document that then failed shows none of it.
      const served = servedTable(await namedTable(explained.table));
      return (await findExtractedDocument(connection, served, explained.source)) ? explained : undefined;
    });
    if (!explanation) {
      const { status, body } = edgeError('NOT_FOUND', `no document matching "${document}" was extracted into ${table ?? 'the table'}`, 'pass a document from GET /records');
      return context.json(body, status as 404);
    }
    return context.json(explanation, 200);
  });

  app.openapi(createRoute({
    method: 'get', path: '/records', summary: 'A page of a table\'s records, ordered by document',
    request: {
      query: tableQuery.extend({
        offset: z.coerce.number().int().min(0).default(0),
        limit: z.coerce.number().int().min(1).max(500).default(100),
      }),
    },
    responses: { 200: { description: '{table, columns, rows, total}', ...anyJson }, ...errorResponses },
  }), async (context) => {
    const { table, offset, limit } = context.req.valid('query');
    const info = await namedTable(table);
    const quoted = quoteIdentifier(info.name);
    const attributes = info.schema.attributes.map((attribute) => `t.${quoteIdentifier(attribute.name)}`);
    if (info.madeBy === 'srag import') {
      // The user's own rows: no documents behind them, so no document column and no labels.
      const page = await withReader(async (connection) => ({
        total: Number((await connection.runAndReadAll(`SELECT count(*) FROM ${quoted}`)).getRowsJS()[0]![0]),
        ...readSqlResult(await connection.runAndReadAll(`SELECT ${attributes.join(', ')} FROM ${quoted} t ORDER BY ALL LIMIT ${limit} OFFSET ${offset}`)),
      }));
      return context.json({ table: info.name, madeBy: info.madeBy, ...page, labels: [] }, 200);
    }
    // The document's column comes last: `_source`, or the `filename` of a table made from srag_extract.
    const sourceColumn = `t.${quoteIdentifier(info.madeBy === 'srag_extract' ? 'filename' : '_source')}`;
    // Only the rows of documents extracted into the table (see findExtractedDocument).
    const { condition, parameter } = extractedRowsFilter(servedTable(info));
    const page = await withReader(async (connection) => {
      const total = Number((await connection.runAndReadAll(`SELECT count(*) FROM ${quoted} t WHERE ${condition}`, [parameter])).getRowsJS()[0]![0]);
      const rows = readSqlResult(await connection.runAndReadAll(`SELECT ${[...attributes, sourceColumn].join(', ')} FROM ${quoted} t WHERE ${condition} ORDER BY ${sourceColumn} LIMIT ${limit} OFFSET ${offset}`, [parameter]));
      return { total, ...rows };
    });
    return context.json({ table: info.name, madeBy: info.madeBy, ...page, labels: page.rows.map((row) => friendlyPath(String(row.at(-1)))) }, 200);
  });

  app.openapi(createRoute({
    method: 'get', path: '/document', summary: 'A document\'s text as the model read it, with a quote located in it; only documents extracted into the table (done in its ingestion log, with a row), and only as they were extracted',
    request: {
      query: tableQuery.extend({
        source: z.string().min(1).openapi({ description: 'the document as ingested (`_source`)' }),
        quote: z.string().max(10_000).optional(),
      }),
    },
    responses: { 200: { description: '{source, label, text, spans}', ...anyJson }, ...errorResponses },
  }), async (context) => {
    const { source, quote, table } = context.req.valid('query');
    const info = await namedTable(table);
    if (info.madeBy === 'srag import') {
      const { status, body } = edgeError('NOT_FOUND', `table ${info.name} was imported with srag import: it has no documents`, 'browse its rows with GET /records');
      return context.json(body, status as 404);
    }
    if (info.madeBy === 'srag_extract' && !keptContentHash(info)) throw contentHashMissing(info.name);
    // A row of a table made from srag_extract names its file as the statement did: the log knows it by its content hash.
    const served = servedTable(info);
    const extracted = await withReader((connection) => findExtractedDocument(connection, served, source));
    if (!extracted) {
      const { status, body } = edgeError('NOT_FOUND', `no document ${source} was extracted into ${info.name}`, `pass a ${info.madeBy === 'srag_extract' ? 'filename' : '_source'} value from GET /records`);
      return context.json(body, status as 404);
    }
    const content = await readDocumentFile(extracted.file, { shownAs: friendlyPath(source) }).catch(() => undefined);
    // The file is shown only as the model read it: one changed since (or replaced by a link) shows nothing.
    if (content === undefined || hashText(content) !== extracted.contentHash) {
      const { status, body } = edgeError('NOT_FOUND', `document ${source} changed or is gone since it was extracted into ${info.name}`, 'ingest it again to see its text');
      return context.json(body, status as 404);
    }
    const text = documentText(extracted.file, content);
    return context.json({ source, label: friendlyPath(source), text, spans: quote ? locateQuote(text, quote) : [] }, 200);
  });

  app.doc('/openapi.json', {
    openapi: '3.0.0',
    info: { title: 'srag serve', version: '1', description: 'Structured RAG over one DuckDB file: ask questions, ingest documents, browse the evidence behind every value.' },
    security: token ? [{ bearer: [] }] : [],
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  return app;
}

/** A job as the API shows it. */
function jobView(job: IngestJob): Record<string, unknown> {
  return {
    id: job.id, status: job.status, table: job.table, paths: job.request.paths, progress: job.progress,
    ...(job.result ? { result: job.result } : {}), ...(job.error ? { error: job.error } : {}),
    warnings: job.warnings, createdAt: job.createdAt,
  };
}
