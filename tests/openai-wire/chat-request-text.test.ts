import { describe, expect, it } from 'vitest';
import { messagesJsonTexts, requestJsonText, type LanguageModelRequest } from '../../core/index.ts';
import { chatCompletionRequest, type OutputMode, type ParameterAdaptation } from '../../openai-wire/index.ts';
import { chatRequestText } from '../../openai-wire/chat-request-text.ts';

const messages = [{ role: 'system' as const, content: 'rules "quoted" \u2014 \\ \n\u2028' }, { role: 'user' as const, content: 'doc \ud83d\ude00 é \ud800 lone' }];
const outputSchema = { name: 'record', schema: { type: 'object', properties: { ['__proto__']: { type: 'string' }, 2: { type: ['string', 'null'] }, note: { type: 'string', description: undefined } } } };

describe('a chat request body as text', () => {
  it('is the text JSON.stringify writes of the body, for every output mode, setting and adaptation', () => {
    const adaptations: ParameterAdaptation[] = [
      { dropped: [], renamed: {} },
      { dropped: ['temperature'], renamed: {} },
      { dropped: [], renamed: { max_tokens: 'max_completion_tokens' } },
      { dropped: ['reasoning_effort'], renamed: { max_completion_tokens: 'max_tokens' }, outputMode: 'json_object' },
    ];
    const requests: LanguageModelRequest[] = [{ messages, outputSchema }, { messages }, { messages, outputSchema, model: 'other "model" \u00e9' }];
    let compared = 0;
    for (const model of ['gpt-4o-mini', 'o3-mini', 'llama']) {
      for (const settings of [{}, { reasoningEffort: 'low', maxOutputTokens: 500 }, { maxOutputTokens: 300 }]) {
        for (const adaptation of adaptations) {
          for (const mode of ['json_schema', 'json_object', 'none'] as OutputMode[]) {
            for (const request of requests) {
              const body = chatCompletionRequest(model, request, mode, { settings, adaptation });
              expect(chatRequestText(body, request).join('')).toBe(JSON.stringify(body));
              compared += 1;
            }
          }
        }
      }
    }
    expect(compared).toBe(3 * 3 * 4 * 3 * 3);
  });

  it('writes any other body as JSON.stringify does: undefined, functions and symbols left out, toJSON and arrays as it writes them', () => {
    const request = { messages, outputSchema };
    const bare = Object.assign(Object.create(null) as object, { b: 1, a: [undefined, () => 1] });
    const body = { model: 'm', skipped: undefined, call: () => 1, [Symbol('s')]: 1, 10: 'ten', 2: 'two', when: new Date(0), nested: { bare, empty: {}, messages }, messages, response_format: { schema: outputSchema.schema, list: [outputSchema.schema] }, last: null };
    expect(chatRequestText(body, request).join('')).toBe(JSON.stringify(body));
  });

  it('takes each message\'s and the schema\'s text as the request key wrote them, once per object', () => {
    const system = { role: 'system' as const, content: 'rules' };
    const sent = { messages: [system, { role: 'user' as const, content: 'doc' }], outputSchema: { name: 'record', schema: { type: 'object' } } };
    // Written once and kept: a change made after the first call is not seen (requests are not changed once sent).
    expect(messagesJsonTexts(sent.messages).join('')).toBe('[{"role":"system","content":"rules"},{"role":"user","content":"doc"}]');
    expect(requestJsonText(sent.outputSchema.schema)).toBe('{"type":"object"}');
    sent.messages[1]!.content = 'changed';
    sent.outputSchema.schema.type = 'changed';
    const text = chatRequestText(chatCompletionRequest('gpt-4o-mini', sent, 'json_schema'), sent).join('');
    expect(text).toContain('"messages":[{"role":"system","content":"rules"},{"role":"user","content":"doc"}]');
    expect(text).toContain('"schema":{"type":"object"}');
    // Another request sharing the system message object: its text is the one written before, the new user message's its own.
    const next = { messages: [system, { role: 'user' as const, content: 'doc 2' }] };
    expect(chatRequestText(chatCompletionRequest('gpt-4o-mini', next, 'none'), next).join('')).toBe(JSON.stringify(chatCompletionRequest('gpt-4o-mini', next, 'none')));
  });

  it('joins the messages\' pieces to JSON.stringify\'s text of them, for none, one or many messages', () => {
    for (const list of [[], [messages[0]!], messages, [...messages, messages[0]!, { role: 'assistant' as const, content: '{"a":"\\u0000"}' }]]) {
      expect(messagesJsonTexts(list).join('')).toBe(JSON.stringify(list));
    }
  });
});
