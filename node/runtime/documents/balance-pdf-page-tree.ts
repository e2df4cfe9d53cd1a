import { PdfObjects } from './pdf-syntax/pdf-objects.ts';
import { PdfDictionary, PdfReference } from './pdf-syntax/pdf-values.ts';

/** A node of the page tree with more kids than this gets levels of intermediate nodes of at most this many. */
const widestNode = 32;
/** Below this many pages a flat tree costs pdf.js little, and the file is left as it is. */
const fewestPages = 256;

/**
 * The PDF with its page tree made balanced, by an incremental update appended to it, and its page count: pdf.js finds
 * page N by walking the tree from its root, and a node that lists every page itself (many
 * generators write one) makes each lookup walk all of them: reading 16,000 pages took 124 s of CPU,
 * against 11 s for the same pages under nodes of 64 (pdf.js rejected assuming a flat list, see
 * mozilla/pdf.js#20359). Each node of more than `widestNode` kids keeps its number and every entry
 * but its kids, which move under new intermediate nodes; pages keep their own objects and their
 * `/Parent`, so what they inherit (resources, boxes, rotation) does not change, nor their order.
 * Returns `bytes` itself when there is nothing to balance, when the file has more than `mostPages`
 * pages (it is refused, and needs no balancing first), or anything about the file is beyond this
 * small reader (an encrypted file, filters other than Flate): pdf.js then reads it as it is.
 */
export function balancePdfPageTree(bytes: Uint8Array, { mostPages = Number.POSITIVE_INFINITY }: { mostPages?: number } = {}): BalancedPdf {
  const read: BalancedPdf = { bytes, pageCount: undefined };
  try {
    read.bytes = balanced(bytes, mostPages, read) ?? bytes;
  } catch {
    read.bytes = bytes;
  }
  return read;
}

export interface BalancedPdf {
  /** The file to give pdf.js: the one given, or it with the update appended. */
  bytes: Uint8Array;
  /** The page count its tree's root declares, when this reader got that far: a file of too many pages can be refused before pdf.js opens it. */
  pageCount: number | undefined;
}

function balanced(bytes: Uint8Array, mostPages: number, read: BalancedPdf): Uint8Array | undefined {
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // pdf.js counts offsets from the header, wherever it starts in the first kilobyte.
  const base = file.subarray(0, 1024).indexOf('%PDF-');
  if (base < 0) return undefined;
  const objects = new PdfObjects(file, base);
  const { trailer, startxref } = objects;
  if (trailer.entries.has('Encrypt')) return undefined;
  const catalog = objects.resolve(trailer.value('Root'));
  const rootReference = catalog instanceof PdfDictionary ? catalog.value('Pages') : undefined;
  if (!(rootReference instanceof PdfReference)) return undefined;
  const root = objects.resolve(rootReference);
  const pages = root instanceof PdfDictionary ? Number(root.value('Count')) : Number.NaN;
  if (Number.isSafeInteger(pages) && pages >= 0) read.pageCount = pages;
  if (!(pages > fewestPages) || pages > mostPages) return undefined;

  let nextNumber = Math.max(Number(trailer.value('Size')) || 0, objects.largestNumber + 1);
  const written: Array<{ reference: PdfReference; body: string }> = [];
  const visited = new Set<string>();
  const pending: PdfReference[] = [rootReference];
  while (pending.length > 0) {
    const reference = pending.pop()!;
    if (visited.has(reference.key)) return undefined;
    visited.add(reference.key);
    const node = objects.resolve(reference);
    if (!(node instanceof PdfDictionary)) return undefined;
    const kids = objects.resolve(node.value('Kids'));
    if (!Array.isArray(kids)) return undefined;
    const counts: number[] = [];
    for (const kid of kids) {
      if (!(kid instanceof PdfReference)) return undefined;
      const dictionary = objects.resolve(kid);
      if (!(dictionary instanceof PdfDictionary)) return undefined;
      const type = dictionary.value('Type');
      if (type === '/Pages' || (type !== '/Page' && dictionary.entries.has('Kids'))) {
        const count = Number(objects.resolve(dictionary.value('Count')));
        if (!Number.isSafeInteger(count) || count < 0) return undefined;
        counts.push(count);
        pending.push(kid);
      } else {
        counts.push(1);
      }
    }
    if (kids.length <= widestNode) continue;
    // Levels of intermediate nodes, bottom up, until the node's own kids fit.
    let level = (kids as PdfReference[]).map((kid, index) => ({ reference: kid.text, count: counts[index]! }));
    while (level.length > widestNode) {
      const above: typeof level = [];
      for (let start = 0; start < level.length; start += widestNode) {
        const group = level.slice(start, start + widestNode);
        const count = group.reduce((sum, kid) => sum + kid.count, 0);
        const intermediate = new PdfReference(nextNumber, 0);
        nextNumber += 1;
        written.push({ reference: intermediate, body: `<< /Type /Pages /Parent ${reference.text} /Kids [${group.map((kid) => kid.reference).join(' ')}] /Count ${count} >>` });
        above.push({ reference: intermediate.text, count });
      }
      level = above;
    }
    const kept = [...node.entries].filter(([key]) => key !== 'Kids' && key !== 'Count').map(([, entry]) => entry.text);
    const total = level.reduce((sum, kid) => sum + kid.count, 0);
    written.push({ reference, body: `<< ${kept.join(' ')} /Kids [${level.map((kid) => kid.reference).join(' ')}] /Count ${total} >>` });
  }
  if (written.length === 0) return undefined;

  const fileLength = file.length - base;
  let update = '\n';
  const offsets = new Map<PdfReference, number>();
  for (const { reference, body } of written) {
    offsets.set(reference, fileLength + update.length);
    update += `${reference.number} ${reference.generation} obj\n${body}\nendobj\n`;
  }
  const crossReference = fileLength + update.length;
  update += 'xref\n';
  for (const { reference } of written) {
    const offset = String(offsets.get(reference)).padStart(10, '0');
    update += `${reference.number} 1\n${offset} ${String(reference.generation).padStart(5, '0')} n\r\n`;
  }
  const carried = ['Root', 'Info', 'ID'].flatMap((key) => trailer.entries.get(key)?.text ?? []);
  update += `trailer\n<< /Size ${nextNumber} ${carried.join(' ')} /Prev ${startxref} >>\nstartxref\n${crossReference}\n%%EOF\n`;
  // An array of its own: pdf.js may take (transfer) the buffer it is given, never a shared pool's.
  const appended = Buffer.from(update, 'latin1');
  const output = new Uint8Array(file.length + appended.length);
  output.set(file);
  output.set(appended, file.length);
  return output;
}
