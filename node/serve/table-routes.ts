import { createRoute, z } from '@hono/zod-openapi';
import type { Srag } from '../session/open-srag.ts';
import { anyJson, errorResponse, errorResponses, notFound, tableQuery, type ServeApp } from './route-parts.ts';

/**
 * The routes that browse the database: its tables whatever made them, a table's schema,
 * statistics and records, a value's evidence and the document it was read from. Evidence and
 * text are served only for documents extracted into the table (done in its ingestion log, with a
 * row), and a document only as the model read it.
 */
export function registerTableRoutes(app: ServeApp, srag: Srag): void {
  app.openapi(createRoute({
    method: 'get', path: '/tables', summary: 'The record tables in the database: their names, and each described (what made it, its attributes, its parent or the file it was imported from)',
    responses: { 200: { description: '{tables: names, details: descriptions}', ...anyJson }, 401: errorResponse },
  }), async (context) => {
    const details = await srag.describeTables();
    return context.json({ tables: details.map((table) => table.name), details }, 200);
  });

  app.openapi(createRoute({
    method: 'get', path: '/schema', summary: 'A table\'s record schema: attributes with kind, unit and description, and the JSON Schema',
    request: { query: tableQuery },
    responses: { 200: { description: 'the schema', ...anyJson }, ...errorResponses },
  }), async (context) => context.json(await srag.schema(context.req.valid('query').table), 200));

  app.openapi(createRoute({
    method: 'get', path: '/stats', summary: 'A table\'s rows, ingestion log counts and column statistics (as `srag stats --json`)',
    request: { query: tableQuery },
    responses: { 200: { description: 'the statistics', ...anyJson }, ...errorResponses },
  }), async (context) => {
    const { schema: _schema, ...stats } = await srag.stats(context.req.valid('query').table);
    return context.json(stats, 200);
  });

  app.openapi(createRoute({
    method: 'get', path: '/why', summary: 'Where a value came from: the quote, the raw model value, its status and reason (as `srag why`); an item of a child table as `price_per_night[2]` with the child table, or `rooms[2].price_per_night`',
    request: {
      query: tableQuery.extend({
        document: z.string().min(1).openapi({ description: 'the document as ingested, or a unique part of its path' }),
        attribute: z.string().min(1),
      }),
    },
    responses: { 200: { description: 'the evidence', ...anyJson }, ...errorResponses },
  }), async (context) => {
    const { document, attribute, table } = context.req.valid('query');
    const explained = await srag.explain({ document, attribute, table });
    // Evidence is kept for what the model read; a document that then failed shows none of it.
    if (!await srag.wasExtracted(explained.table, explained.source)) {
      return context.json(notFound(`no document matching "${document}" was extracted into ${table ?? 'the table'}`, 'pass a document from GET /records'), 404);
    }
    return context.json(explained, 200);
  });

  app.openapi(createRoute({
    method: 'get', path: '/records', summary: 'A page of a table\'s records, ordered by document: the attributes, then (for a child table) `_position`, then the document (`_source`, or `filename` for a table made by srag_extract); an imported table\'s rows have no document',
    request: {
      query: tableQuery.extend({
        offset: z.coerce.number().int().min(0).default(0),
        limit: z.coerce.number().int().min(1).max(500).default(100),
      }),
    },
    responses: { 200: { description: '{table, madeBy, columns, rows, total, labels, document, position}', ...anyJson }, ...errorResponses },
  }), async (context) => context.json(await srag.records(context.req.valid('query')), 200));

  app.openapi(createRoute({
    method: 'get', path: '/document', summary: 'A document\'s text as the model read it, with a quote located in it; only documents extracted into the table (done in its ingestion log, with a row), and only as they were extracted',
    request: {
      query: tableQuery.extend({
        source: z.string().min(1).openapi({ description: 'the document as ingested (`_source`, or `filename` for a table made by srag_extract)' }),
        quote: z.string().max(10_000).optional(),
      }),
    },
    responses: { 200: { description: '{source, label, text, spans}', ...anyJson }, ...errorResponses },
  }), async (context) => {
    const { source, quote, table } = context.req.valid('query');
    const shown = await srag.documentText({ table, source, quote });
    if (!('unavailable' in shown)) return context.json(shown, 200);
    const named = shown.table;
    switch (shown.unavailable) {
      case 'imported':
        return context.json(notFound(`table ${named} was imported with srag import: it has no documents`, 'browse its rows with GET /records'), 404);
      case 'not-extracted':
        return context.json(notFound(`no document ${source} was extracted into ${named}`, 'pass a _source (or, for a table made by srag_extract, a filename) value from GET /records'), 404);
      case 'changed':
        return context.json(notFound(`document ${source} changed or is gone since it was extracted into ${named}`, 'ingest it again to see its text'), 404);
    }
  });
}
