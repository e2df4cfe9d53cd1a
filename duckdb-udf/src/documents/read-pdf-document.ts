import { pdfPagesText, SragError, type PdfTextRun } from '../../../core/index.ts';
import { readFileBytes } from '../read-text-file.ts';

/**
 * The text of a PDF file as `pdfPagesText` lays it out: page markers, reading order, headings, and
 * tables as `cell | cell` rows. Parsed with Mozilla's pdf.js (through unpdf's build, which needs no
 * canvas and no worker), loaded on first use. A PDF with no text on any page is a scan: that is the
 * document's error, so it is never sent to the model.
 */
export async function readPdfDocument(path: string, label = path): Promise<string> {
  const bytes = new Uint8Array(await readFileBytes(path, { code: 'DOCUMENT_UNREADABLE', hint: 'check that the file exists and is readable' }));
  const { getDocumentProxy } = await import('unpdf');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(bytes, { isEvalSupported: false, stopAtErrors: false, verbosity: 0 });
  } catch (error) {
    throw unreadablePdf(label, error);
  }
  const pages: PdfTextRun[][] = [];
  try {
    for (let number = 1; number <= pdf.numPages; number += 1) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      pages.push(content.items.flatMap((item) => ('str' in item ? [textRun(item)] : [])));
      page.cleanup();
    }
  } catch (error) {
    throw unreadablePdf(label, error);
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

function unreadablePdf(label: string, error: unknown): SragError {
  const name = (error as { name?: string }).name;
  if (name === 'PasswordException') {
    return new SragError({ code: 'DOCUMENT_UNREADABLE', message: `${label} is password-protected`, hint: 'save an unprotected copy and ingest that', cause: error });
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new SragError({ code: 'DOCUMENT_UNREADABLE', message: `${label} is not a readable PDF (${reason})`, hint: 'open it in a PDF viewer to check it, or export it again', cause: error });
}
