import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether an `Authorization` header carries `Bearer <token>`, compared in constant time: both sides
 * are hashed to digests of one length first, so neither where they differ nor the token's length
 * shows in how long the answer takes (a `!==` stops at the first differing character).
 */
export function tokenMatches(authorization: string | undefined, token: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(authorization ?? ''), digest(`Bearer ${token}`));
}
