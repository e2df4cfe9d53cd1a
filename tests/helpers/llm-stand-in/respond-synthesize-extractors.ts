import type { ChatRequest } from './chat-request.ts';
import { firstMessageOf } from './chat-request.ts';
import type { GoldCorpus, GoldTemplate } from './load-gold-corpus.ts';
import { findBestCorpus, noGoldReply } from './match-gold.ts';
import { contentReply, invalidRequestReply, jsonContent, type Reply } from './reply.ts';
import { normalizeWhitespace } from './text-matching.ts';
import type { ExtractorFault } from './types.ts';

/** The document marker a `loop-on-marker` function loops on. */
export const codeLoopMarker = 'STAND-IN: CODE-LOOP';

/** Functions that misbehave on purpose; each would harm the host if it ran outside a sandbox. */
const faultSources: Record<Exclude<ExtractorFault, 'loop-on-marker'>, string> = {
  'endless-loop': 'function (text) { for (;;) {} }',
  'memory-bomb': 'function (text) { let grown = text; for (;;) { grown = grown + grown; grown.charCodeAt(grown.length - 1); } }',
  'reach-host': 'function (text) { return { value: process.env.HOME, quote: require("node:fs").readFileSync("/etc/hostname", "utf8") }; }',
};

/**
 * synthesize-extractors: one function per attribute the prompt lists, built from the templated
 * corpus's gold (`gold/extractors.json`: a regular expression per attribute, its first group the
 * value, its whole match the quote), as a model that saw the samples would write it; null for an
 * attribute without a template. `slips` get the template's plausible wrong pattern, `faults` a
 * misbehaving function. A prompt whose samples match no templated corpus is refused.
 */
export function respondSynthesizeExtractors(request: ChatRequest, corpora: GoldCorpus[], slips: readonly string[], faults: Readonly<Record<string, ExtractorFault>>): Reply {
  const prompt = firstMessageOf(request, 'user');
  const attributesSection = /^Attributes:\n([\s\S]*?)\n\n/m.exec(prompt)?.[1] ?? '';
  const attributes = [...attributesSection.matchAll(/^- (\S+) \(/gm)].map((match) => match[1]!);
  if (attributes.length === 0) return invalidRequestReply('the LLM stand-in found no "- name (kind): …" lines under "Attributes:" in the synthesize-extractors prompt', 'messages');
  const samples = [...prompt.matchAll(/<document id="\d+">\n([\s\S]*?)\n<\/document>/g)].map((match) => match[1]!).join('\n');
  const corpus = findBestCorpus(corpora.filter((candidate) => candidate.extractors), normalizeWhitespace(samples));
  if (!corpus?.extractors) return noGoldReply('extraction templates (gold/extractors.json) for these sample documents', corpora);
  const answer = Object.fromEntries(attributes.map((attribute) => {
    const template = corpus.extractors![attribute];
    const fault = faults[attribute];
    if (fault && fault !== 'loop-on-marker') return [attribute, faultSources[fault]];
    if (!template) return [attribute, null];
    const pattern = slips.includes(attribute) && template.slip ? template.slip : template.pattern;
    return [attribute, templateFunction({ ...template, pattern }, fault === 'loop-on-marker')];
  }));
  return contentReply(jsonContent(answer, request.responseFormat, 'Here are the extraction functions:'));
}

function templateFunction(template: GoldTemplate, loopOnMarker: boolean): string {
  return [
    'function (text) {',
    ...(loopOnMarker ? [`  if (text.includes(${JSON.stringify(codeLoopMarker)})) for (;;) {}`] : []),
    `  const match = new RegExp(${JSON.stringify(template.pattern)}, ${JSON.stringify(template.flags ?? '')}).exec(text);`,
    '  return match ? { value: match[1], quote: match[0] } : null;',
    '}',
  ].join('\n');
}
