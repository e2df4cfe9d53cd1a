import { constants, inflateRawSync } from 'node:zlib';
import { SragError } from '../../../core/index.ts';
import { megabytes } from './megabytes.ts';

export interface ZipInflationCheck {
  /** How messages name the file. */
  label: string;
  /** The most bytes the checked entries may inflate to, together. */
  maximumBytes: number;
  /** Entries the reader never opens (a Word file's images, for srag): neither counted nor inflated. */
  skip?: (name: string) => boolean;
}

/**
 * Throws the document's DOCUMENT_UNREADABLE unless the zip archive's entries (but `skip`'s) inflate
 * to at most `maximumBytes` together, checked before a reader inflates them whole: first the sizes
 * the central directory declares (a bomb that says what it is costs nothing), then each entry
 * inflated with its declared size as the most it may produce (a bomb that lies is stopped after
 * that many bytes). An archive this cannot read is left to the reader, which says what is wrong.
 */
export function checkZipInflation(bytes: Uint8Array, { label, maximumBytes, skip = () => false }: ZipInflationCheck): void {
  const entries = centralDirectory(bytes);
  if (!entries) return;
  const checked = entries.filter((entry) => !entry.name.endsWith('/') && !skip(entry.name));
  const declared = checked.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
  if (declared > maximumBytes) {
    throw new SragError({
      code: 'DOCUMENT_UNREADABLE',
      message: `${label} inflates to ${megabytes(declared)} when opened, more than the ${megabytes(maximumBytes)} srag opens of one document`,
      hint: 'a small file that inflates this much is a compression bomb; a real document this large must be split into smaller ones',
    });
  }
  for (const entry of checked) {
    const data = entryData(bytes, entry);
    if (!data || (entry.method !== 0 && entry.method !== 8)) continue;
    let inflated: number;
    try {
      inflated = entry.method === 0
        ? data.length
        : inflateRawSync(data, { maxOutputLength: Math.max(1, entry.uncompressedSize), finishFlush: constants.Z_SYNC_FLUSH }).length;
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE') continue;
      inflated = Number.POSITIVE_INFINITY;
    }
    if (inflated > entry.uncompressedSize) {
      throw new SragError({
        code: 'DOCUMENT_UNREADABLE',
        message: `${label} is damaged or hostile: its part ${entry.name} inflates to more than the ${entry.uncompressedSize.toLocaleString('en-US')} bytes it declares`,
        hint: 'open it in Word or LibreOffice and save it again',
      });
    }
  }
}

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

const endOfCentralDirectory = 0x06054b50;
const zip64EndLocator = 0x07064b50;
const zip64End = 0x06064b50;
const centralHeader = 0x02014b50;
const localHeader = 0x04034b50;
const unknown32 = 0xffffffff;
const utf8 = new TextDecoder();

/** The archive's entries as its central directory lists them (ZIP64 sizes included), or undefined if it has none that parses. */
function centralDirectory(bytes: Uint8Array): ZipEntry[] | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  // The end record is 22 bytes and a comment of at most 65,535 after it.
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 65_535); at -= 1) {
    if (view.getUint32(at, true) === endOfCentralDirectory) {
      end = at;
      break;
    }
  }
  if (end < 0) return undefined;
  let count = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  if ((count === 0xffff || offset === unknown32) && end >= 20 && view.getUint32(end - 20, true) === zip64EndLocator) {
    const record = Number(view.getBigUint64(end - 12, true));
    if (record + 56 > bytes.length || view.getUint32(record, true) !== zip64End) return undefined;
    count = Number(view.getBigUint64(record + 32, true));
    offset = Number(view.getBigUint64(record + 48, true));
  }
  const entries: ZipEntry[] = [];
  let at = offset;
  for (let index = 0; index < count; index += 1) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== centralHeader) return undefined;
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const entry: ZipEntry = {
      name: utf8.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      uncompressedSize: view.getUint32(at + 24, true),
      localHeaderOffset: view.getUint32(at + 42, true),
    };
    readZip64Sizes(view, at + 46 + nameLength, extraLength, entry);
    entries.push(entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** ZIP64's extended information field: 64-bit values for the fields set to 0xFFFFFFFF, in this order. */
function readZip64Sizes(view: DataView, start: number, length: number, entry: ZipEntry): void {
  for (let at = start; at + 4 <= start + length;) {
    const id = view.getUint16(at, true);
    const size = view.getUint16(at + 2, true);
    if (id === 0x0001) {
      let field = at + 4;
      for (const key of ['uncompressedSize', 'compressedSize', 'localHeaderOffset'] as const) {
        if (entry[key] !== unknown32 || field + 8 > at + 4 + size) continue;
        entry[key] = Number(view.getBigUint64(field, true));
        field += 8;
      }
      return;
    }
    at += 4 + size;
  }
}

/** The compressed bytes of an entry, found through its local header. */
function entryData(bytes: Uint8Array, entry: ZipEntry): Uint8Array | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== localHeader) return undefined;
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  return bytes.subarray(start, Math.min(bytes.length, start + entry.compressedSize));
}

