import { readFileSync } from 'node:fs';
import type { ServeApp } from './route-parts.ts';
import { pageScript } from './page-script.ts';

/** The page's HTML, shipped beside prompts/ (the package build rewrites this URL for dist/). */
const pageHtml = new URL('../../serve-page/index.html', import.meta.url);

/** The page and its script: they carry no data, so they are served without the token (see `isPublicPath`). */
export function registerPageRoutes(app: ServeApp): void {
  app.get('/', (context) => context.html(readFileSync(pageHtml, 'utf8')));
  app.get('/app.js', async (context) => context.body(await pageScript(), 200, { 'content-type': 'text/javascript; charset=utf-8' }));
}

/** The paths anyone may fetch: the page, its script and the API's description. */
export function isPublicPath(path: string): boolean {
  return path === '/' || path === '/app.js' || path === '/openapi.json';
}
