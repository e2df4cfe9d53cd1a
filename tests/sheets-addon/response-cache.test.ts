import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createResponseCache } from '../../sheets-addon/src/apps-script/cache-service-response-cache.ts';
import { CacheServiceStandIn, CacheStore, PropertiesServiceStandIn, PropertyStore } from './helpers/apps-script-host/service-stand-ins.ts';

/**
 * The add-on's reply cache against the CacheService and PropertiesService stand-ins, which keep
 * Google's limits: 1,000 items per cache (oldest dropped first), values counted in UTF-8 bytes.
 */
const services = {
  documentCache: new CacheStore(() => Date.now()),
  userCache: new CacheStore(() => Date.now()),
  documentProperties: new PropertyStore(),
};
const globals = globalThis as Record<string, unknown>;

beforeEach(() => {
  services.documentCache = new CacheStore(() => Date.now());
  services.userCache = new CacheStore(() => Date.now());
  services.documentProperties = new PropertyStore();
  globals.CacheService = new CacheServiceStandIn({ document: services.documentCache, user: services.userCache, script: new CacheStore(() => Date.now()) });
  globals.PropertiesService = new PropertiesServiceStandIn({ document: services.documentProperties, user: new PropertyStore(), script: new PropertyStore() });
});

afterEach(() => {
  delete globals.CacheService;
  delete globals.PropertiesService;
});

function reply(text: string) {
  return { text, model: 'gpt-4o-mini', usage: { promptTokens: 100, completionTokens: 20 } };
}

describe('the reply cache of the Sheets add-on', () => {
  it('keeps a batch\'s replies in the running user\'s cache, so a 1,200-document batch leaves the formulas\' replies in the document cache', async () => {
    const formulas = createResponseCache({ keepLonger: true });
    for (let index = 0; index < 10; index += 1) await formulas.set(`formula-${index}`, reply(`{"value": ${index}}`));
    const batch = createResponseCache({ keepLonger: false });
    for (let index = 0; index < 1_200; index += 1) await batch.set(`document-${index}`, reply(`{"hotel_name": "Hotel ${index}"}`));

    expect(services.documentCache.evictions).toBe(0);
    for (let index = 0; index < 10; index += 1) expect(await formulas.get(`formula-${index}`)).toEqual(reply(`{"value": ${index}}`));
    expect(services.userCache.evictions).toBeGreaterThan(0);
    // The newest replies, those of records not yet written, are still there.
    expect(await batch.get('document-1199')).toEqual(reply('{"hotel_name": "Hotel 1199"}'));
    expect([...services.documentProperties.values.keys()].filter((key) => key.includes('document-'))).toEqual([]);
  });

  it('measures a reply in UTF-8 bytes: one too large for a property stays in the cache only, and no other kept reply is dropped for it', async () => {
    const formulas = createResponseCache({ keepLonger: true });
    for (let index = 0; index < 6; index += 1) await formulas.set(`kept-${index}`, reply(`{"city": "Kyoto ${index}"}`));
    const japanese = `{"summary": "${'京都の旅館'.repeat(800)}"}`;
    expect(japanese.length).toBeLessThan(8_500);
    expect(Buffer.byteLength(japanese)).toBeGreaterThan(9 * 1024);

    await formulas.set('large', reply(japanese));

    expect([...services.documentProperties.values.keys()].sort()).toEqual([0, 1, 2, 3, 4, 5].map((index) => `srag.reply.kept-${index}`));
    expect(await formulas.get('large')).toEqual(reply(japanese));
  });
});
