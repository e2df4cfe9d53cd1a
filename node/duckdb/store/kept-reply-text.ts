import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * How srag_cache keeps a reply's text: deflated (raw deflate, level 1) in `response_deflated`,
 * with `response` NULL; rows an older srag wrote keep it in `response`. A checkpoint rewrites the
 * cache's last row group whole once a commit appended to it, holding its replies twice in memory
 * meanwhile: as plain text, up to 8,192 replies of ~8.6 KB made each checkpoint of a 100,000-page
 * ingest late in its row group cost +120–160 MB. Deflated they are 5.5× smaller (stand-in replies,
 * JSON with a quote per value), for ~0.14 ms of CPU a reply of ten documents.
 */
export function deflateReplyText(text: string): Buffer {
  return deflateRawSync(text, { level: 1 });
}

/** The text of a reply read from srag_cache as (`response`, `response_deflated`). */
export function keptReplyText(response: unknown, deflated: unknown): string {
  return deflated === null || deflated === undefined ? String(response) : inflateRawSync(deflated as Uint8Array).toString('utf8');
}
