import { describe, expect, it } from 'vitest';
import { defaultMaxReplyBytes } from '../../openai-wire/index.ts';
import { readSettings } from '../../duckdb-udf/src/read-settings.ts';
import { caught } from '../helpers/caught.ts';

describe('the settings read from the environment', () => {
  it('bounds a reply at 8 MiB unless SRAG_MAX_REPLY_BYTES says otherwise, and refuses a bound that is not a whole number before any run', async () => {
    expect(readSettings({}).maxReplyBytes).toBe(defaultMaxReplyBytes);
    expect(defaultMaxReplyBytes).toBe(8 * 1024 * 1024);
    expect(readSettings({ SRAG_MAX_REPLY_BYTES: '65536' }).maxReplyBytes).toBe(65_536);
    const error = await caught(Promise.resolve().then(() => readSettings({ SRAG_MAX_REPLY_BYTES: '8MB' })));
    expect({ code: (error as { code?: string }).code, message: (error as Error).message, hint: (error as { hint?: string }).hint }).toEqual({
      code: 'INPUT_INVALID', message: 'SRAG_MAX_REPLY_BYTES="8MB" is not a positive whole number', hint: `unset it for the default (${defaultMaxReplyBytes})`,
    });
  });
});
