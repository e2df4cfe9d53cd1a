import { createHash } from 'node:crypto';

/**
 * Hex SHA-256 of a string's UTF-8 bytes with Node's native hash: the same digest as core's
 * portable `contentHash` (so keys and hashes carry over between Node and Apps Script), at a
 * fraction of its cost — it is computed for every document and every model request.
 */
export function hashText(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
