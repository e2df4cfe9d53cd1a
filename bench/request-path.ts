/**
 * The request path of a batch extraction, this checkout against another in the same process:
 * `npx tsx bench/request-path.ts --reference DIR [--pages 3000] [--rounds 6] [--batch-size 10]`
 * (DIR a checkout of srag, e.g. /work/main). For every call `extractRecordBatch` plans for `--pages`
 * generated hotel pages (the CLI benchmark's corpus), at most `--batch-size` to a call, each
 * checkout makes the request as its batch extraction does, its cache key (the native hash) and the
 * body's bytes as srag for Node sends them: the reference with its own code, this checkout with
 * `chatRequestText` and the transport's encoding of the pieces. Prints the CPU of each, round after
 * round, and checks that both give the same keys and bytes.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generateHotelCorpus } from './generate-hotel-corpus.ts';

const { values: flags } = parseArgs({ options: { reference: { type: 'string' }, pages: { type: 'string', default: '3000' }, rounds: { type: 'string', default: '6' }, 'batch-size': { type: 'string', default: '10' } } });
if (!flags.reference) throw new Error('request-path: give --reference DIR, a checkout of srag to compare with');

interface Checkout {
  core: typeof import('../core/index.ts');
  plan: typeof import('../core/extraction/plan-batch-calls.ts');
  render: typeof import('../core/extraction/render-batch-documents.ts');
  output: typeof import('../core/extraction/batch-output-schema.ts');
  wire: typeof import('../openai-wire/index.ts');
  hash: typeof import('../node/runtime/hash-text.ts');
  prompts: typeof import('../node/runtime/load-prompt-library.ts');
}
const load = async (root: string): Promise<Checkout> => ({
  core: await import(resolve(root, 'core/index.ts')),
  plan: await import(resolve(root, 'core/extraction/plan-batch-calls.ts')),
  render: await import(resolve(root, 'core/extraction/render-batch-documents.ts')),
  output: await import(resolve(root, 'core/extraction/batch-output-schema.ts')),
  wire: await import(resolve(root, 'openai-wire/index.ts')),
  hash: await import(resolve(root, 'node/runtime/hash-text.ts')),
  prompts: await import(resolve(root, 'node/runtime/load-prompt-library.ts')),
});
const here = await load(resolve(import.meta.dirname, '..'));
const reference = await load(resolve(flags.reference));
const { chatRequestText } = await import('../openai-wire/chat-request-text.ts');

const directory = mkdtempSync(join(tmpdir(), 'srag-request-path-'));
generateHotelCorpus(directory, Number(flags.pages));
const files = readdirSync(join(directory, 'docs')).sort();
const texts = files.map((file) => here.core.documentText(file, readFileSync(join(directory, 'docs', file), 'utf8')));
const schemaText = readFileSync(join(directory, 'schema.json'), 'utf8');
rmSync(directory, { recursive: true, force: true });

const endpoint = { modelId: 'gpt-4o-mini', endpoint: 'https://api.openai.com/v1', doGenerate: async () => { throw new Error('not called'); } };

/** One checkout's pass over every call: the keys and the bytes' lengths, for the comparison. */
function pass(checkout: Checkout, ours: boolean): { keys: string[]; bytes: number } {
  const schema = checkout.core.parseRecordSchema(JSON.parse(schemaText));
  const prompts = checkout.prompts.loadPromptLibrary();
  const client = new checkout.core.ModelClient({ languageModel: endpoint, sleep: async () => {}, hashText: checkout.hash.hashText, ...(ours ? { hashTexts: here.hash.hashTexts } : {}) });
  const plan = checkout.plan.planBatchCalls({ prompts, schema, texts, withEvidence: true, countTokens: checkout.core.approximateTokenCount, maxDocumentsPerCall: Number(flags['batch-size']) });
  const outputSchema = checkout.output.batchOutputSchema(schema, true);
  const keys: string[] = [];
  let bytes = 0;
  for (const call of plan.calls) {
    const user = checkout.render.renderBatchDocuments(call.map((position, index) => ({ id: String(index + 1), text: texts[position]! })), checkout.hash.hashText);
    const system = ours ? (plan as { systemMessage: { role: 'system'; content: string } }).systemMessage : { role: 'system' as const, content: plan.system };
    const request = { messages: [system, { role: 'user' as const, content: user }], outputSchema };
    keys.push(client.cacheKey(request));
    const body = checkout.wire.chatCompletionRequest('gpt-4o-mini', request, 'json_schema');
    if (!ours) {
      bytes += Buffer.from(JSON.stringify(body), 'utf8').length;
      continue;
    }
    // As srag for Node's transport sends a body in pieces (node-http-transport's bodyBytes).
    const pieces = chatRequestText(body, request);
    let length = 0;
    for (const piece of pieces) length += Buffer.byteLength(piece, 'utf8');
    const encoded = Buffer.allocUnsafe(length);
    let at = 0;
    for (const piece of pieces) at += encoded.write(piece, at, 'utf8');
    bytes += encoded.length;
  }
  return { keys, bytes };
}

const first = [pass(reference, false), pass(here, true)];
if (first[0]!.keys.join() !== first[1]!.keys.join() || first[0]!.bytes !== first[1]!.bytes) throw new Error('request-path: the checkouts make different keys or bodies');
console.log(`${first[0]!.keys.length} calls for ${texts.length} pages, ${first[0]!.bytes.toLocaleString('en-US')} bytes of bodies, the same keys and bytes from both`);
const cpu = (run: () => unknown) => {
  const before = process.cpuUsage();
  run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
};
for (let round = 0; round < Number(flags.rounds); round += 1) {
  const referenceMilliseconds = cpu(() => pass(reference, false));
  const ourMilliseconds = cpu(() => pass(here, true));
  console.log(`round ${round + 1}: reference ${referenceMilliseconds.toFixed(1)} ms, this checkout ${ourMilliseconds.toFixed(1)} ms`);
}
