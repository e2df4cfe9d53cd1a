/** API-key shapes of common providers, masked or not ("sk-abc…", "sk-proj-…", "Bearer …"). */
const keyPatterns = [/\bsk-[A-Za-z0-9_*-]{3,}/g, /\bBearer\s+[A-Za-z0-9_*.-]{8,}/gi, /\bkey-[A-Za-z0-9]{16,}/g];
/** A word with a run of asterisks beside a letter or digit: how providers echo any key partly masked ("abcd****wxyz"). */
const maskedWord = /[\w.~+/=-]*(?:[A-Za-z0-9]\*{3,}|\*{3,}[A-Za-z0-9])[\w.~+/=*-]*/g;
/** An absolute URL in running text. */
const urlPattern = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;
/** Query values shorter than this are too likely to be ordinary words ("json", "2") to remove wherever they appear. */
const minimumQuerySecretLength = 8;

/**
 * Remove secrets from text that may reach a log line, a cell, an error message or a database.
 *
 * - Each known secret (the API key) is removed verbatim, URL-encoded too. A known secret that is a
 *   URL (the configured base URL) keeps its address; what it carries is removed wherever it
 *   appears: its user and password, and its query values (`?api-key=…`).
 * - In every URL of the text, credentials and query values are removed: `http://[redacted]@host/v1?key=[redacted]`.
 * - Key-shaped strings, and any word masked with asterisks (providers echo "sk-abc***xyz" or
 *   "abcd****wxyz"), are removed even when the key itself is not known here.
 */
export function redactSecrets(text: string, secrets: Array<string | undefined> = []): string {
  let redacted = text;
  for (const secret of secrets.flatMap((known) => (known ? verbatimSecrets(known) : []))) {
    redacted = redacted.split(secret).join('[redacted]');
  }
  redacted = redacted.replace(urlPattern, redactUrl);
  for (const pattern of keyPatterns) redacted = redacted.replace(pattern, '[redacted]');
  return redacted.replace(maskedWord, '[redacted]');
}

/** The strings to remove for one known secret, longest first so that a part never splits a whole. */
function verbatimSecrets(secret: string): string[] {
  const found = new Set<string>();
  const add = (value: string | undefined, minimumLength = 4) => {
    if (!value || value.length < minimumLength) return;
    found.add(value);
    const encoded = encodeURIComponent(value);
    if (encoded !== value) found.add(encoded);
    const decoded = decodeOrSelf(value);
    if (decoded.length >= minimumLength) found.add(decoded);
  };
  const url = /^[a-z][a-z0-9+.-]*:\/\/(?:([^/?#@]*)@)?[^?#]*(?:\?([^#]*))?/i.exec(secret.trim());
  if (!url) {
    add(secret);
  } else {
    const [, credentials, query] = url;
    if (credentials) {
      add(credentials);
      for (const part of credentials.split(':')) add(part);
    }
    for (const parameter of (query ?? '').split('&')) add(parameter.slice(parameter.indexOf('=') + 1), minimumQuerySecretLength);
  }
  return [...found].sort((left, right) => right.length - left.length);
}

function redactUrl(url: string): string {
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]+@/i, '$1[redacted]@')
    .replace(/([?&][^=&#]*)=(?!\[redacted\])[^&#]+/g, '$1=[redacted]');
}

function decodeOrSelf(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
