import type { Page } from 'playwright-core';
import type { AppsScriptHost } from './apps-script-host/apps-script-host.ts';

/**
 * google.script.run and google.script.host in a page of the add-on (Sidebar.html, Picker.html):
 * every server call goes to `__serverCall`, which runs the function as an execution of the built
 * Code.js on the test host, so the page drives the real add-on. `host.close()` sets `__closed`.
 */
const googleScriptStub = `
  window.google = { script: {
    host: { origin: 'https://docs.google.com', close: function () { window.__closed = true; } },
    run: (function makeRunner(onSuccess, onFailure) {
      return new Proxy({}, { get: function (_, name) {
        if (name === 'withSuccessHandler') return function (handler) { return makeRunner(handler, onFailure); };
        if (name === 'withFailureHandler') return function (handler) { return makeRunner(onSuccess, handler); };
        if (name === 'withUserObject') return function () { return makeRunner(onSuccess, onFailure); };
        return function () {
          var args = Array.prototype.slice.call(arguments);
          window.__serverCall(String(name), JSON.stringify(args)).then(function (reply) {
            var outcome = JSON.parse(reply);
            if ('error' in outcome) { if (onFailure) onFailure(new Error(outcome.error)); }
            else if (onSuccess) onSuccess(outcome.value);
          });
        };
      } });
    })(),
  } };
`;

/** Connects `page` to `host` as Apps Script's HtmlService connects a dialog or sidebar to its script. */
export async function connectPageToHost(page: Page, host: AppsScriptHost): Promise<void> {
  await page.exposeFunction('__serverCall', async (name: string, args: string) => {
    try {
      return JSON.stringify({ value: await host.run(name, JSON.parse(args) as unknown[]) });
    } catch (error) {
      return JSON.stringify({ error: (error as Error).message });
    }
  });
  await page.addInitScript(googleScriptStub);
}
