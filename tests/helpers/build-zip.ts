import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntrySpec {
  name: string;
  /** The bytes the entry holds once inflated. */
  content?: Uint8Array | string;
  /** The entry's compressed bytes as written, for an entry whose content is not `content` deflated (a bomb's); its CRC is then left 0, which neither JSZip (by default) nor srag checks. */
  deflated?: Uint8Array;
  /** The uncompressed size the headers declare, when it is not the content's (a lie, or a bomb that says what it is). */
  declaredSize?: number;
}

/**
 * A zip archive built by hand, every entry deflated, so that a test can write what a hostile file
 * holds: declared sizes that lie, parts that inflate to far more than the file's size. Central
 * directory and local headers as APPNOTE.TXT 4.3 lays them out, without ZIP64.
 */
export function buildZip(entries: ZipEntrySpec[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const content = typeof entry.content === 'string' ? Buffer.from(entry.content) : Buffer.from(entry.content ?? []);
    const data = entry.deflated ? Buffer.from(entry.deflated) : deflateRawSync(content);
    const size = entry.declaredSize ?? content.length;
    const name = Buffer.from(entry.name);
    const checksum = entry.deflated ? 0 : crc32(content);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(checksum, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(checksum, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** `bytes` zero bytes, deflated (raw): 1 MB of zeros takes about 1 KB. */
export function deflatedZeros(bytes: number): Buffer {
  return deflateRawSync(Buffer.alloc(bytes));
}
