/**
 * Evidence-check differential: `npx tsx bench/evidence-differential.ts --reference DIR [--count N] [--hotels N]`
 *
 * Reads the same replies with this checkout's `readRecordReply` and with another checkout's (DIR
 * holds its `core/`, e.g. `mkdir DIR && git archive main core | tar -x -C DIR`), call by call, and
 * counts the results that are not deep-equal (values, evidence, statuses, reasons, issues and
 * problems alike): what a change made for speed must keep at zero. The replies are the stand-in's
 * own answers, with every slip it makes alone and in pairs (`answerProperty`), each attribute's value
 * under another attribute's quote, and values of another kind, over bench:evidence's generated
 * corpora (`--count` documents per domain), the sample corpora with their gold records, and
 * `--hotels` generated hotel pages (the CLI benchmark's corpus); each read with and without
 * evidence, strict and not. A sample of the calls is read again in reverse order, so that a cache
 * kept between calls cannot change an answer unseen.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { documentText, parseRecordSchema, type RecordSchema } from '../core/index.ts';
import { readRecordReply } from '../core/extraction/read-record-reply.ts';
import { answerChildItems } from '../tests/helpers/llm-stand-in/answer-child-items.ts';
import { answerProperty } from '../tests/helpers/llm-stand-in/answer-property.ts';
import type { GoldRecord } from '../tests/helpers/llm-stand-in/load-gold-corpus.ts';
import type { ModelSlip } from '../tests/helpers/llm-stand-in/types.ts';
import { slipCorpora, type SlipCorpus } from './evidence-slip-tally.ts';
import { generateHotelCorpus } from './generate-hotel-corpus.ts';

const { values: flags } = parseArgs({ options: { reference: { type: 'string' }, count: { type: 'string', default: '250' }, hotels: { type: 'string', default: '1000' } } });
if (!flags.reference) throw new Error('evidence-differential: give --reference DIR, a directory holding the core/ of the checkout to compare with');
const reference = (await import(resolve(flags.reference, 'core/extraction/read-record-reply.ts'))) as { readRecordReply: typeof readRecordReply };

interface Call {
  schema: RecordSchema;
  text: string;
  reply: unknown;
  label: string;
}

const slipSets: ModelSlip[][] = [
  [], ['retype-quotes'], ['elide-over-value'], ['terse-quotes'], ['decoy-values'], ['misread-values'], ['fabricate-quotes'],
  ['misread-values', 'retype-quotes'], ['decoy-values', 'elide-over-value'], ['retype-quotes', 'elide-over-value'],
];

function goldCorpus(directory: string, name: string): SlipCorpus {
  const schema = parseRecordSchema(JSON.parse(readFileSync(join(directory, 'schema.json'), 'utf8')));
  const documents = readFileSync(join(directory, 'gold/records.jsonl'), 'utf8').trim().split('\n').map((line) => {
    const record = JSON.parse(line) as GoldRecord;
    const path = join(directory, record.document);
    return { text: documentText(path, readFileSync(path, 'utf8')), record };
  });
  return { name, schema, documents };
}

/** Every reply the differential reads for one corpus (see the header). */
function* callsOf(corpus: SlipCorpus): Generator<Call> {
  const { attributes } = corpus.schema;
  const entities = new Map((corpus.schema.entities ?? []).map((entity) => [entity.name, entity.attributes.map((attribute) => attribute.name)]));
  for (const document of corpus.documents) {
    const label = `${corpus.name} ${document.record.document}`;
    for (const slips of slipSets) {
      const reply: Record<string, unknown> = {};
      attributes.forEach((attribute, position) => {
        reply[attribute.name] = answerProperty(attribute.name, document.record, document.text, slips, position);
      });
      for (const [name, items] of answerChildItems(entities, document.record, document.text, true, slips, [])) reply[name] = items;
      yield { schema: corpus.schema, text: document.text, reply, label: `${label} ${slips.join('+') || 'no slip'}` };
    }
    const careful = attributes.map((attribute, position) => answerProperty(attribute.name, document.record, document.text, [], position));
    for (const shift of [1, 2, 3]) {
      const reply: Record<string, unknown> = {};
      attributes.forEach((attribute, position) => {
        reply[attribute.name] = { value: careful[position]!.value, quote: careful[(position + shift) % careful.length]!.quote };
      });
      for (const name of entities.keys()) reply[name] = [];
      yield { schema: corpus.schema, text: document.text, reply, label: `${label} quotes shifted by ${shift}` };
    }
    const reply: Record<string, unknown> = {};
    attributes.forEach((attribute, position) => {
      reply[attribute.name] = { value: careful[(position + 1) % careful.length]!.value, quote: careful[position]!.quote };
    });
    for (const name of entities.keys()) reply[name] = null;
    yield { schema: corpus.schema, text: document.text, reply, label: `${label} values shifted` };
  }
}

const hotelDirectory = mkdtempSync(join(tmpdir(), 'srag-evidence-differential-'));
try {
  generateHotelCorpus(hotelDirectory, Number(flags.hotels));
  const corpora = [
    ...slipCorpora({ seed: 37, count: Number(flags.count), samples: true }),
    goldCorpus('examples/guesthouses', 'guesthouses (sample)'),
    goldCorpus(hotelDirectory, `${flags.hotels} generated hotel pages`),
  ];
  let calls = 0;
  let differences = 0;
  const again: Array<{ call: Call; before: unknown }> = [];
  const report = (label: string, before: unknown, after: unknown) => {
    differences += 1;
    if (differences <= 10) console.log(`different: ${label}\n  reference: ${JSON.stringify(before).slice(0, 1000)}\n  this:      ${JSON.stringify(after).slice(0, 1000)}`);
  };
  for (const corpus of corpora) {
    let corpusCalls = 0;
    for (const call of callsOf(corpus)) {
      for (const withEvidence of [true, false]) {
        for (const strict of [false, true]) {
          const options = { schema: call.schema, documentText: call.text, withEvidence, strict };
          const before = reference.readRecordReply(call.reply, options);
          const after = readRecordReply(call.reply, options);
          calls += 1;
          corpusCalls += 1;
          if (withEvidence && !strict && calls % 7 === 0) again.push({ call, before });
          if (!isDeepStrictEqual(before, after)) report(`${call.label}, evidence ${withEvidence ? 'on' : 'off'}, ${strict ? 'strict' : 'not strict'}`, before, after);
        }
      }
    }
    console.log(`${corpus.name}: ${corpusCalls.toLocaleString('en-US')} calls`);
  }
  for (const { call, before } of again.reverse()) {
    const after = readRecordReply(call.reply, { schema: call.schema, documentText: call.text, withEvidence: true, strict: false });
    calls += 1;
    if (!isDeepStrictEqual(before, after)) report(`${call.label}, read again in reverse order`, before, after);
  }
  console.log(`${calls.toLocaleString('en-US')} calls, ${differences} different`);
  if (differences > 0) process.exitCode = 1;
} finally {
  rmSync(hotelDirectory, { recursive: true, force: true });
}
