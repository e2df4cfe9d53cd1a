/**
 * The endpoint as a reply's origin: its base URL without credentials, query or fragment and without
 * a trailing slash, the scheme and host lower-cased (`https://api.openai.com/v1`). It holds no
 * secret (a key in `?api-key=…` or `user:password@` is dropped), so it may be stored beside a
 * cached reply and shown in `srag stats`.
 */
export function endpointIdentity(baseUrl: string): string {
  const trimmed = baseUrl.trim();
  const address = trimmed.slice(0, trimmed.search(/[?#]|$/));
  const match = /^([a-z][a-z0-9+.-]*:\/\/)(?:[^/@]*@)?([^/]*)(.*)$/i.exec(address);
  if (!match) return address.replace(/\/+$/, '');
  const [, scheme, host, path] = match;
  return `${scheme!.toLowerCase()}${host!.toLowerCase()}${path!.replace(/\/+$/, '')}`;
}
