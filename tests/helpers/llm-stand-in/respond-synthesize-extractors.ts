import type { ChatRequest } from './chat-request.ts';
import { firstMessageOf } from './chat-request.ts';
import type { GoldCorpus, GoldTemplate } from './load-gold-corpus.ts';
import { findBestCorpus, noGoldReply } from './match-gold.ts';
import { contentReply, invalidRequestReply, jsonContent, type Reply } from './reply.ts';
import { normalizeWhitespace } from './text-matching.ts';
import type { ExtractorFault } from './types.ts';

/** The document marker a `loop-on-marker` function loops on. */
export const codeLoopMarker = 'STAND-IN: CODE-LOOP';
/** The document marker on which a `misread-unchecked` function reads another attribute's line. */
export const codeMisreadMarker = 'STAND-IN: MISREAD';
/** Calls a `stateful-counter` function answers right: the documents a run checks it on by default (3 samples, 5 held out). */
export const statefulRightCalls = 8;

/** Functions that misbehave on purpose; each would harm the host if it ran outside a sandbox. */
const faultSources: Record<Exclude<ExtractorFault, 'loop-on-marker' | 'stateful-counter' | 'misread-unchecked'>, string> = {
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
  const templates = Object.entries(corpus.extractors);
  const answer = Object.fromEntries(attributes.map((attribute) => {
    const template = corpus.extractors![attribute];
    const fault = faults[attribute];
    if (fault === 'endless-loop' || fault === 'memory-bomb' || fault === 'reach-host') return [attribute, faultSources[fault]];
    if (!template) return [attribute, null];
    const pattern = slips.includes(attribute) && template.slip ? template.slip : template.pattern;
    if (fault === 'stateful-counter' || fault === 'misread-unchecked') {
      // The template before this one (the first's: the one after it) reads another line of the same document.
      const at = templates.findIndex(([name]) => name === attribute);
      const other = templates[at > 0 ? at - 1 : at + 1]![1];
      return [attribute, fault === 'stateful-counter' ? statefulFunction(template, other) : misreadingFunction(template, other)];
    }
    return [attribute, templateFunction({ ...template, pattern }, fault === 'loop-on-marker')];
  }));
  return contentReply(jsonContent(answer, request.responseFormat, 'Here are the extraction functions:'));
}

function templateFunction(template: GoldTemplate, loopOnMarker: boolean): string {
  const loop = loopOnMarker ? [`if (text.includes(${JSON.stringify(codeLoopMarker)})) for (;;) {}`] : [];
  return `function (text) {\n${[...loop, ...readWith(regExpOf(template))].map((line) => `  ${line}`).join('\n')}\n}`;
}

/** Reads like `template` for its first `statefulRightCalls` calls, then like `other`: it counts in its closure and in a global. */
function statefulFunction(template: GoldTemplate, other: GoldTemplate): string {
  const body = [
    'calls += 1;',
    'globalThis.extractorCalls = (globalThis.extractorCalls || 0) + 1;',
    ...readWith(`(Math.max(calls, globalThis.extractorCalls) <= ${statefulRightCalls} ? ${regExpOf(template)} : ${regExpOf(other)})`),
  ];
  return `(() => {\n  let calls = 0;\n  return function (text) {\n${body.map((line) => `    ${line}`).join('\n')}\n  };\n})()`;
}

/** Reads like `template`, except on a document carrying `codeMisreadMarker`, where it reads like `other`. */
function misreadingFunction(template: GoldTemplate, other: GoldTemplate): string {
  const pattern = `(text.includes(${JSON.stringify(codeMisreadMarker)}) ? ${regExpOf(other)} : ${regExpOf(template)})`;
  return `function (text) {\n${readWith(pattern).map((line) => `  ${line}`).join('\n')}\n}`;
}

/** The template's regular expression as JavaScript source. */
function regExpOf(template: GoldTemplate): string {
  return `new RegExp(${JSON.stringify(template.pattern)}, ${JSON.stringify(template.flags ?? '')})`;
}

/** The lines that read a value with `pattern` (JavaScript source of a RegExp): its first group the value, its whole match the quote. */
function readWith(pattern: string): string[] {
  return [`const match = ${pattern}.exec(text);`, 'return match ? { value: match[1], quote: match[0] } : null;'];
}
