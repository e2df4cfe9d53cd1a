import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import type { Srag } from '../session/open-srag.ts';
import { edgeError, httpError } from './http-error.ts';
import { registerIngestJobRoutes } from './ingest-job-routes.ts';
import type { IngestJobs } from './ingest-jobs.ts';
import { KeptAnswers } from './kept-answers.ts';
import { isPublicPath, registerPageRoutes } from './page-routes.ts';
import { registerQueryRoutes } from './query-routes.ts';
import { registerTableRoutes } from './table-routes.ts';
import { tokenMatches } from './token-matches.ts';

export interface ServeAppOptions {
  /** The use cases over the served database; each read gets a connection of its own. */
  srag: Srag;
  jobs: IngestJobs;
  /** Bearer token every API request must carry; undefined on loopback without `SRAG_SERVE_TOKEN`. */
  token?: string;
  /** Largest request body accepted, in bytes. */
  maximumBodyBytes?: number;
}

/**
 * The HTTP edge of `srag serve`: the route groups (questions and their records, ingest jobs, the
 * tables and their evidence, the page) behind what every request passes first — the host check,
 * the token, the body limit. Requests are checked against zod schemas, which also make the OpenAPI
 * document at /openapi.json; every error leaves as `{error: {code, message, hint, fix?}}` through
 * `httpError`, the one table from code to status.
 */
export function createServeApp({ srag, jobs, token, maximumBodyBytes = 1_000_000 }: ServeAppOptions): OpenAPIHono {
  const app = new OpenAPIHono({
    defaultHook: (result, context) => {
      if (result.success) return;
      const issue = result.error.issues[0];
      const where = issue && issue.path.length ? `${result.target} field "${issue.path.join('.')}"` : `the request ${result.target}`;
      const { status, body } = edgeError('INPUT_INVALID', `${where}: ${issue?.message ?? 'invalid'}`, 'see /openapi.json for the request shape');
      return context.json(body, status as 400);
    },
  });

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
  registerPageRoutes(app);
  app.use('*', async (context, next) => {
    if (!token || isPublicPath(new URL(context.req.url).pathname)) return next();
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

  registerQueryRoutes(app, srag, new KeptAnswers());
  registerIngestJobRoutes(app, jobs);
  registerTableRoutes(app, srag);

  app.doc('/openapi.json', {
    openapi: '3.0.0',
    info: { title: 'srag serve', version: '1', description: 'Structured RAG over one DuckDB file: ask questions, trace an answer to its records and download them, ingest documents, browse the evidence behind every value.' },
    security: token ? [{ bearer: [] }] : [],
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  return app;
}
