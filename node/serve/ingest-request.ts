import { z } from '@hono/zod-openapi';

/**
 * `POST /ingest`'s body: the documents and schema, and the ingest use case's options with the
 * meaning `srag ingest`'s flags give them (`maxCost` as `--max-cost`, `batchApi` as `--batch-api`, …).
 */
export const ingestRequestBody = z.object({
  paths: z.array(z.string().min(1)).min(1).max(1_000).openapi({ description: 'files, directories or globs on the server, relative to its working directory; only inside the folders it serves (its working directory, or each --allow-path)' }),
  schema: z.union([z.record(z.string(), z.unknown()), z.string().min(1)]).openapi({ description: 'the record schema (as `srag schema` writes it), or the path of its file on the server, inside the folders it serves' }),
  table: z.string().min(1).optional(),
  retryFailed: z.boolean().optional(),
  evidence: z.boolean().optional().openapi({ description: 'ask for quotes (default true)' }),
  prune: z.boolean().optional().openapi({ description: 'remove the records of the table\'s documents whose files are gone from their paths (default false: the job\'s warnings name them); a moved or renamed file keeps its record either way' }),
  batchSize: z.number().int().min(1).optional().openapi({ description: 'the most documents per model call (as srag ingest --batch-size); by default short documents share a call, 1 sends each alone' }),
  maxCost: z.number().positive().finite().optional().openapi({ description: 'stop before the job would spend more than this many US dollars (as srag ingest --max-cost; needs the model\'s price, built in or from SRAG_PRICES): the job ends done with `budget_reached: true`, what is done is saved, and the same job again goes on' }),
  batchApi: z.boolean().optional().openapi({ description: 'send the requests through the provider\'s Batch API (as srag ingest --batch-api): about half the price, answered within 24 hours; the job ends once they are submitted (`batch_api.waiting`), and the same job again collects the replies' }),
  synthesize: z.boolean().optional().openapi({ description: 'for documents that follow one template: code the model writes reads the attributes it agrees on (as srag ingest --synthesize); not with batchApi' }),
  dryRun: z.boolean().optional().openapi({ description: 'answer at once (200, no job) with what the job would send and cost, as srag ingest --dry-run --json prints it: no model call, nothing saved' }),
}).strict();

export type IngestRequestBody = z.infer<typeof ingestRequestBody>;
