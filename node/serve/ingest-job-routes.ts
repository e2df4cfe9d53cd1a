import { createRoute, z } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import type { IngestJob, IngestJobs } from './ingest-jobs.ts';
import { anyJson, errorResponse, errorResponses, jsonBody, notFound, type ServeApp } from './route-parts.ts';

/**
 * The ingest routes: POST /ingest starts a job (`IngestJobs`, one at a time, stored in the
 * database), GET /jobs and /jobs/{id} show them, /jobs/{id}/events follows one as server-sent events.
 */
export function registerIngestJobRoutes(app: ServeApp, jobs: IngestJobs): void {
  app.openapi(createRoute({
    method: 'post', path: '/ingest', summary: 'Start an ingest job: one record per document into the table; returns the job at once',
    request: {
      body: jsonBody(z.object({
        paths: z.array(z.string().min(1)).min(1).max(1_000).openapi({ description: 'files, directories or globs on the server, relative to its working directory; only inside the folders it serves (its working directory, or each --allow-path)' }),
        schema: z.union([z.record(z.string(), z.unknown()), z.string().min(1)]).openapi({ description: 'the record schema (as `srag schema` writes it), or the path of its file on the server, inside the folders it serves' }),
        table: z.string().min(1).optional(),
        retryFailed: z.boolean().optional(),
        evidence: z.boolean().optional().openapi({ description: 'ask for quotes (default true)' }),
        prune: z.boolean().optional().openapi({ description: 'remove the records of the table\'s documents whose files are gone from their paths (default false: the job\'s warnings name them); a moved or renamed file keeps its record either way' }),
      }).strict()),
    },
    responses: { 202: { description: 'the job, queued', ...anyJson }, ...errorResponses },
  }), async (context) => {
    const job = await jobs.submit(context.req.valid('json'));
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
    if (!job) return context.json(notFound(`no job ${context.req.valid('param').id}`, 'GET /jobs lists them'), 404);
    return context.json(jobView(job), 200);
  });

  app.openapi(createRoute({
    method: 'get', path: '/jobs/{id}/events', summary: 'An ingest job\'s progress as server-sent events ("job" events, the last one when it ends)',
    request: { params: jobParameters },
    responses: { 200: { description: 'text/event-stream of job events' }, 401: errorResponse, 404: errorResponse },
  }), (context) => {
    const job = jobs.get(context.req.valid('param').id);
    if (!job) return context.json(notFound(`no job ${context.req.valid('param').id}`, 'GET /jobs lists them'), 404);
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
}

/** A job as the API shows it. */
function jobView(job: IngestJob): Record<string, unknown> {
  return {
    id: job.id, status: job.status, table: job.table, paths: job.request.paths, progress: job.progress,
    ...(job.result ? { result: job.result } : {}), ...(job.error ? { error: job.error } : {}),
    warnings: job.warnings, createdAt: job.createdAt,
  };
}
