/** Set by build.mjs from `--allow-url`; absent when the bundle is loaded by anything else. */
declare const SRAG_URL_FETCH_ALLOWLIST: readonly string[] | undefined;

/**
 * The model endpoints this build may call: the `urlFetchWhitelist` of its manifest, without the
 * Drive API's prefix. Empty for a build without `--allow-url` (a bound script or a test
 * deployment), which may call any endpoint. A versioned deployment needs the list, and Apps Script
 * then refuses every other URL, so Settings refuses them first, with a message that says why.
 */
export const urlFetchAllowlist: readonly string[] = typeof SRAG_URL_FETCH_ALLOWLIST === 'undefined' ? [] : SRAG_URL_FETCH_ALLOWLIST;

/** Whether `url` starts with one of the prefixes; `https://*.example.com/` matches its subdomains. */
export function allowedByUrlFetchAllowlist(url: string, prefixes: readonly string[] = urlFetchAllowlist): boolean {
  if (prefixes.length === 0) return true;
  return prefixes.some((prefix) => {
    const wildcard = prefix.startsWith('https://*.');
    const rest = (wildcard ? prefix.slice('https://*.'.length) : prefix.slice('https://'.length)).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`^https://${wildcard ? '(?:[^/.]+\\.)+' : ''}${rest}`, 'i').test(url);
  });
}
