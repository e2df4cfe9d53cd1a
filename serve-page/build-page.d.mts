import type { Metafile } from 'esbuild';

/** Builds the page's script (serve-page/src/main.ts and what it imports) for the browser, minified. */
export function buildPageScript(): Promise<{ text: string; metafile: Metafile }>;
