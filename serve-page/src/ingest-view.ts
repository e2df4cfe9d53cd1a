import { getJson, postJson, request } from './api.ts';
import { run } from './banner.ts';
import { byId, create } from './elements.ts';

interface JobBody {
  id: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  table: string;
  progress: { completed: number; total: number; failed: number };
  result?: { summary: { done: number; failed: number; unchanged: number } };
  error?: { message: string };
}

/** What a dry run answers (as `srag ingest --dry-run --json`). */
interface IngestEstimate {
  documents: number;
  calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost_usd: number | null;
  model: string;
  table: string;
  left_alone: number;
}

/** The request the form says: the documents, the schema, and the options a user set (a blank one is left out). */
function ingestRequest(): Record<string, unknown> {
  const paths = byId<HTMLTextAreaElement>('ingest-paths').value.split('\n').map((line) => line.trim()).filter(Boolean);
  const table = byId<HTMLInputElement>('ingest-table').value.trim();
  const maxCost = byId<HTMLInputElement>('ingest-max-cost').valueAsNumber;
  return {
    paths,
    schema: byId<HTMLInputElement>('ingest-schema').value.trim(),
    ...(table ? { table } : {}),
    ...(Number.isFinite(maxCost) && maxCost > 0 ? { maxCost } : {}),
    ...(byId<HTMLInputElement>('ingest-batch-api').checked ? { batchApi: true } : {}),
  };
}

function describeEstimate(estimate: IngestEstimate): string {
  const cost = estimate.cost_usd === null ? `no price known for ${estimate.model}` : `about $${estimate.cost_usd.toFixed(4)} with ${estimate.model}`;
  const leftAlone = estimate.left_alone ? ` (${estimate.left_alone} unchanged, left alone)` : '';
  return `${estimate.table}: ${estimate.documents} documents to extract${leftAlone} in ${estimate.calls} calls, ${estimate.prompt_tokens.toLocaleString('en-US')} prompt and ${estimate.completion_tokens.toLocaleString('en-US')} completion tokens, ${cost}. Nothing was sent.`;
}

/** The ingest form: paths and a schema file on the server, a job whose progress is followed until it ends. */
export function setUpIngest(onDone: () => void): void {
  byId('ingest').addEventListener('submit', (event) => {
    event.preventDefault();
    void run(async () => {
      const job = await postJson<JobBody>('/ingest', ingestRequest());
      if ((await followJob(job)).status === 'done') onDone();
    });
  });
  // What the job would send and cost, before it spends anything (POST /ingest with dryRun).
  byId('ingest-estimate').addEventListener('click', () => {
    void run(async () => {
      const estimate = await postJson<IngestEstimate>('/ingest', { ...ingestRequest(), dryRun: true });
      byId('ingest-estimate-result').textContent = describeEstimate(estimate);
    });
  });
  // Jobs started before the page was opened (or by another client) are followed too.
  void run(async () => {
    const { jobs } = await getJson<{ jobs: JobBody[] }>('/jobs');
    for (const job of jobs.filter((candidate) => candidate.status === 'queued' || candidate.status === 'running').reverse()) {
      void followJob(job).then((last) => last.status === 'done' && onDone());
    }
  });
}

/** Shows a job and follows its server-sent events until it ends; the job as it ended. */
async function followJob(job: JobBody): Promise<JobBody> {
  const box = create('div', undefined, 'job');
  box.id = `job-${job.id}`;
  box.setAttribute('role', 'status');
  byId('jobs').prepend(box);
  const render = (current: JobBody) => {
    const { completed, total, failed } = current.progress;
    const bar = create('progress');
    bar.max = total || 1;
    bar.value = completed;
    bar.setAttribute('aria-label', `${current.table}: ${completed} of ${total} documents`);
    box.replaceChildren(create('div', `${current.table}: ${current.status}, ${completed}/${total} documents${failed ? `, ${failed} failed` : ''}`), bar);
    if (current.result) {
      const summary = current.result.summary;
      box.append(create('div', `${summary.done} done, ${summary.failed} failed, ${summary.unchanged} unchanged`, 'muted'));
    }
    if (current.error) box.append(create('div', current.error.message, 'error'));
  };
  render(job);
  const response = await request(`/jobs/${job.id}/events`);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let last = job;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const message = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = message.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).join('\n');
      if (data) render((last = JSON.parse(data) as JobBody));
    }
  }
  return last;
}
