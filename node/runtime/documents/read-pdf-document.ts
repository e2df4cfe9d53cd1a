import { pdfPagesText, SragError, type PdfTextRun } from '../../../core/index.ts';
import { readFileBytes } from '../read-text-file.ts';
import { balancePdfPageTree } from './balance-pdf-page-tree.ts';
import { checkPdfInflation } from './check-pdf-inflation.ts';
import type { DocumentReadingLimits } from './document-reading-limits.ts';
import { ReadingDeadline } from './reading-deadline.ts';

/**
 * What a PDF's compressed streams may inflate to, images aside: far above the text and fonts of a
 * PDF of `SRAG_MAX_PAGES` pages, far below what would strain the process (pdf.js keeps a page's
 * decoded streams while it reads the page).
 */
const maximumInflatedBytes = 256 * 1_048_576;

/**
 * The text of a PDF file as `pdfPagesText` lays it out: page markers, reading order, headings, and
 * tables as `cell | cell` rows. Parsed with Mozilla's pdf.js (through unpdf's build, which needs no
 * canvas and no worker), loaded on first use, its page tree balanced first so that reading takes
 * time in proportion to the pages (see `balancePdfPageTree`). A PDF with no text on any page is a scan: that is the
 * document's error, so it is never sent to the model. So is a PDF whose streams inflate past
 * `maximumInflatedBytes`, one of more than `limits.maxPages` pages (refused before any page is read),
 * and one still being read after `limits.readTimeoutMilliseconds` (checked between pages).
 */
export async function readPdfDocument(path: string, label: string, limits: DocumentReadingLimits): Promise<string> {
  const deadline = new ReadingDeadline(label, limits.readTimeoutMilliseconds);
  const bytes = new Uint8Array(await readFileBytes(path, { code: 'DOCUMENT_UNREADABLE', hint: 'check that the file exists and is readable' }));
  checkPdfInflation(bytes, { label, maximumBytes: maximumInflatedBytes });
  const balanced = balancePdfPageTree(bytes, { mostPages: limits.maxPages });
  // Refused before pdf.js opens it: opening a flat tree of 100,000 pages alone took 4 s.
  if (balanced.pageCount !== undefined && balanced.pageCount > limits.maxPages) throw tooManyPages(label, balanced.pageCount, limits.maxPages);
  const { getDocumentProxy } = await import('unpdf');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(balanced.bytes, { isEvalSupported: false, stopAtErrors: false, verbosity: 0 });
  } catch (error) {
    throw unreadablePdf(label, error);
  }
  const pages: PdfTextRun[][] = [];
  try {
    if (pdf.numPages > limits.maxPages) throw tooManyPages(label, pdf.numPages, limits.maxPages);
    for (let number = 1; number <= pdf.numPages; number += 1) {
      deadline.check(`stopped at page ${number.toLocaleString('en-US')} of ${pdf.numPages.toLocaleString('en-US')}`);
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      pages.push(content.items.flatMap((item) => ('str' in item ? [textRun(item)] : [])));
      page.cleanup();
    }
  } catch (error) {
    throw SragError.isInstance(error) ? error : unreadablePdf(label, error);
  } finally {
    await pdf.destroy();
  }
  if (pages.every((runs) => runs.every((run) => run.text.trim() === ''))) {
    throw new SragError({
      code: 'DOCUMENT_UNREADABLE',
      message: `${label} has no text layer: OCR it first`,
      hint: 'a scanned PDF is only images; add a text layer with an OCR tool (for instance ocrmypdf in.pdf out.pdf) and ingest the result',
    });
  }
  return pdfPagesText(pages);
}

/** The fields of a pdf.js text item that the layout uses. */
interface PdfJsTextItem {
  str: string;
  /** [scaleX, skewY, skewX, scaleY, x, y] of the run's text matrix in page space. */
  transform: number[];
  width: number;
}

function textRun(item: PdfJsTextItem): PdfTextRun {
  const [, , skewX = 0, scaleY = 0, x = 0, y = 0] = item.transform;
  return { text: item.str, x, y, width: item.width, fontSize: Math.hypot(skewX, scaleY) };
}

function tooManyPages(label: string, pages: number, maximum: number): SragError {
  return new SragError({
    code: 'DOCUMENT_UNREADABLE',
    message: `${label} has ${pages.toLocaleString('en-US')} pages, more than the ${maximum.toLocaleString('en-US')} srag reads of one document`,
    hint: 'split it into smaller PDFs (for instance qpdf --split-pages=1000 in.pdf part.pdf), or raise SRAG_MAX_PAGES',
  });
}

function unreadablePdf(label: string, error: unknown): SragError {
  const name = (error as { name?: string }).name;
  if (name === 'PasswordException') {
    return new SragError({ code: 'DOCUMENT_UNREADABLE', message: `${label} is password-protected`, hint: 'save an unprotected copy and ingest that', cause: error });
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new SragError({ code: 'DOCUMENT_UNREADABLE', message: `${label} is not a readable PDF (${reason})`, hint: 'open it in a PDF viewer to check it, or export it again', cause: error });
}
