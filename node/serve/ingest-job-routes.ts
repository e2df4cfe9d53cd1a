import { createRoute, z } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import type { IngestJob, IngestJobs } from './ingest-jobs.ts';
import { ingestRequestBody } from './ingest-request.ts';
import { anyJson, errorResponse, errorResponses, jsonBody, notFound, type ServeApp } from './route-parts.ts';

/**
 * The ingest routes: POST /ingest starts a job (`IngestJobs`, one at a time, kept in the
 * database) or answers a dry run's estimate; GET /jobs and /jobs/{id} show jobs, /jobs/{id}/events
 * follows one as server-sent events.
 */
export function registerIngestJobRoutes(app: ServeApp, jobs: IngestJobs): void {
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
      let last = '';
      const send = (current: IngestJob) => {
        // The job's state as it is now (a write waiting behind another would send a later one), and only when it changed.
        const data = JSON.stringify(jobView(current));
        if (data !== last) sending = sending.then(() => stream.writeSSE({ event: 'job', data })).catch(() => finish());
        last = data;
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
