import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { describeStaleDemoEndpoint } from '../../examples/stale-demo-endpoint.ts';

/** A loopback port something listens on, and a function that closes it (leaving a port nothing listens on). */
async function listening(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('npm run demo with OPENAI_BASE_URL left behind', () => {
  it('says that nothing listens there, that the stopped stand-in left it, and the line that clears it', async () => {
    const server = await listening();
    await server.close();
    const message = await describeStaleDemoEndpoint({ OPENAI_BASE_URL: `http://127.0.0.1:${server.port}/v1`, LLM_STAND_IN_PID: '4242' });
    expect(message).toBe(`OPENAI_BASE_URL is http://127.0.0.1:${server.port}/v1, and nothing listens there (the LLM stand-in this shell started, process 4242, has stopped: `
      + 'kill $LLM_STAND_IN_PID leaves the variables it exported) — run the demo offline after `unset OPENAI_BASE_URL LLM_STAND_IN_PID`, or start the server it names');
    expect(await describeStaleDemoEndpoint({ OPENAI_BASE_URL: `http://localhost:${server.port}/v1` })).toMatch(/^OPENAI_BASE_URL is http:\/\/localhost:\d+\/v1, and nothing listens there — run the demo offline/);
  });

  it('goes on when something answers there, when no base URL is set, and for an endpoint on another machine (which it does not probe)', async () => {
    const server = await listening();
    try {
      expect(await describeStaleDemoEndpoint({ OPENAI_BASE_URL: `http://127.0.0.1:${server.port}/v1` })).toBeUndefined();
    } finally {
      await server.close();
    }
    expect(await describeStaleDemoEndpoint({})).toBeUndefined();
    expect(await describeStaleDemoEndpoint({ OPENAI_BASE_URL: 'https://api.example.invalid/v1' })).toBeUndefined();
  });
});
