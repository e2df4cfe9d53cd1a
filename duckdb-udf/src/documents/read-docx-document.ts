import { reduceHtml, SragError } from '../../../core/index.ts';
import { readFileBytes } from '../read-text-file.ts';

/**
 * The text of a Word `.docx` file: mammoth turns it into HTML (headings from the Heading styles,
 * tables with their merged cells, lists), which `reduceHtml` reduces like any page, so headings
 * stay `#` lines and table rows `cell | cell`. Images are left out, and so are files the document
 * links to outside itself. Loaded on first use.
 */
export async function readDocxDocument(path: string, label = path): Promise<string> {
  const buffer = await readFileBytes(path, { code: 'DOCUMENT_UNREADABLE', hint: 'check that the file exists and is readable' });
  const { default: mammoth } = await import('mammoth');
  let html: string;
  try {
    const noImage = mammoth.images.imgElement(async () => ({ src: '' }));
    html = (await mammoth.convertToHtml({ buffer }, { convertImage: noImage, externalFileAccess: false })).value;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SragError({ code: 'DOCUMENT_UNREADABLE', message: `${label} is not a readable .docx file (${reason})`, hint: 'open it in Word or LibreOffice and save it again as .docx', cause: error });
  }
  const text = reduceHtml(html);
  if (text.trim() === '') {
    throw new SragError({ code: 'DOCUMENT_UNREADABLE', message: `${label} has no text`, hint: 'a document of scanned images needs OCR first' });
  }
  return text;
}
