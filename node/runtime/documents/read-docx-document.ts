import { reduceHtml, SragError } from '../../../core/index.ts';
import { readFileBytes } from '../read-text-file.ts';
import { checkZipInflation } from './check-zip-inflation.ts';
import type { DocumentReadingLimits } from './document-reading-limits.ts';
import { ReadingDeadline } from './reading-deadline.ts';

/**
 * What the parts mammoth opens may inflate to together: a Word document's text, styles and
 * relationships. mammoth holds the XML it parses as a tree many times its size (22 MB of
 * document.xml took 13 s and 1 GB); 16 MB is some 3,000 pages of text.
 */
const maximumInflatedBytes = 16 * 1_048_576;

/** Images, which srag leaves out: mammoth only opens one when asked for its bytes, and srag never asks. */
const isImage = (name: string) => /^word\/media\//i.test(name) || /\.(png|jpe?g|gif|bmp|tiff?|emf|wmf|svg|webp)$/i.test(name);

/**
 * The text of a Word `.docx` file: mammoth turns it into HTML (headings from the Heading styles,
 * tables with their merged cells, lists), which `reduceHtml` reduces like any page, so headings
 * stay `#` lines and table rows `cell | cell`. Images are left out, and so are files the document
 * links to outside itself. Loaded on first use. A file whose parts inflate past
 * `maximumInflatedBytes` (a zip bomb) is refused before anything is inflated whole, and a
 * conversion still running after `limits.readTimeoutMilliseconds` is given up.
 */
export async function readDocxDocument(path: string, label: string, limits: DocumentReadingLimits): Promise<string> {
  const deadline = new ReadingDeadline(label, limits.readTimeoutMilliseconds);
  const buffer = await readFileBytes(path, { code: 'DOCUMENT_UNREADABLE', hint: 'check that the file exists and is readable' });
  checkZipInflation(buffer, { label, maximumBytes: maximumInflatedBytes, skip: isImage });
  const { default: mammoth } = await import('mammoth');
  let html: string;
  try {
    const noImage = mammoth.images.imgElement(async () => ({ src: '' }));
    html = (await deadline.race(mammoth.convertToHtml({ buffer }, { convertImage: noImage, externalFileAccess: false }))).value;
  } catch (error) {
    if (SragError.isInstance(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new SragError({ code: 'DOCUMENT_UNREADABLE', message: `${label} is not a readable .docx file (${reason})`, hint: 'open it in Word or LibreOffice and save it again as .docx', cause: error });
  }
  const text = reduceHtml(html);
  if (text.trim() === '') {
    throw new SragError({ code: 'DOCUMENT_UNREADABLE', message: `${label} has no text`, hint: 'a document of scanned images needs OCR first' });
  }
  return text;
}
