import { constants, inflateSync } from 'node:zlib';
import { SragError } from '../../../core/index.ts';
import { megabytes } from './megabytes.ts';

/** Flate inside Flate is undone this many times over (pdf.js applies a filter array whole). */
const deepestFilterChain = 4;
/**
 * The most one stream may inflate to: what the check holds in memory at once (a page's content, a
 * large CJK font are tens of megabytes at most).
 */
const largestStream = 64 * 1_048_576;
/** How far before `stream` its dictionary is looked for. */
const dictionaryWindow = 4096;

/**
 * Throws the document's DOCUMENT_UNREADABLE when the PDF's Flate streams, images aside, inflate to
 * more than `maximumBytes` together, or one of them to more than `largestStream`: each is inflated
 * with what is left of both as the most it may produce, so that a bomb is stopped after that many
 * bytes, before pdf.js would inflate it whole (it keeps a stream's decoded bytes while it reads the
 * page). Images are left out, as pdf.js does not decode them for text. Streams this cannot inflate
 * (other filters, an encrypted file) are not counted; the page count and reading time bound those.
 */
export function checkPdfInflation(bytes: Uint8Array, { label, maximumBytes }: { label: string; maximumBytes: number }): void {
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let left = maximumBytes;
  for (let keyword = file.indexOf('stream'); keyword >= 0; keyword = file.indexOf('stream', keyword + 6)) {
    // The keyword itself, not the end of `endstream`, followed by its end of line.
    if (keyword >= 3 && file.toString('latin1', keyword - 3, keyword) === 'end') continue;
    const lineEnd = file[keyword + 6] === 0x0d ? (file[keyword + 7] === 0x0a ? 2 : 1) : file[keyword + 6] === 0x0a ? 1 : 0;
    if (lineEnd === 0) continue;
    const objectStart = file.lastIndexOf('obj', keyword);
    const dictionary = file.toString('latin1', Math.max(objectStart, keyword - dictionaryWindow, 0), keyword);
    if (/\/Subtype\s*\/Image\b/.test(dictionary)) continue;
    const start = keyword + 6 + lineEnd;
    const end = file.indexOf('endstream', start);
    let data: Uint8Array = file.subarray(start, end < 0 ? file.length : end);
    for (let level = 0; level < deepestFilterChain && isZlibStream(data); level += 1) {
      let inflated: Buffer;
      const most = Math.min(left, largestStream);
      try {
        inflated = inflateSync(data, { maxOutputLength: Math.max(1, most), finishFlush: constants.Z_SYNC_FLUSH });
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(label, most === left ? maximumBytes : largestStream, most === left ? '' : ' in one stream');
        break;
      }
      if (level > 0) left += data.length;
      left -= inflated.length;
      data = inflated;
    }
  }
}

/**
 * Whether the data opens with a zlib header (deflate, and the check bits FlateDecode's streams carry):
 * other streams are passed over without a zlib engine and the error it would throw, each of which
 * cost 0.2 ms (a PDF of 100,000 uncompressed pages took 24 s to check).
 */
function isZlibStream(data: Uint8Array): boolean {
  return data.length >= 2 && (data[0]! & 0x0f) === 8 && ((data[0]! << 8) | data[1]!) % 31 === 0;
}

function tooLarge(label: string, maximumBytes: number, where: string): SragError {
  return new SragError({
    code: 'DOCUMENT_UNREADABLE',
    message: `${label} inflates to more than ${megabytes(maximumBytes)}${where} when opened, the most srag opens of one ${where ? 'stream' : 'document'}`,
    hint: 'a small file that inflates this much is a compression bomb; a real document this large must be split into smaller ones',
  });
}
