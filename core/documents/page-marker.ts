/**
 * The line that opens page `page` in the text of a paged document (a PDF): `--- page 3 ---`, or
 * `--- page 3 (no text layer) ---` for a page that is only an image. Markers let evidence name the
 * page a quote is on (`pageOfQuote`) and are ignored when a quote is checked against the text
 * (`withoutPageMarkers`), so a quote that runs across a page break still matches.
 */
export function pageMarker(page: number, note?: string): string {
  return `--- page ${page}${note ? ` (${note})` : ''} ---`;
}

/** A whole line that `pageMarker` writes; group 1 is the page number. */
export const pageMarkerLine = /^--- page (\d+)(?: \([^()\n]*\))? ---$/gm;

/** A marker anywhere, as a model may copy it into a quote with the lines around it joined. */
const pageMarkerAnywhere = /--- page \d+(?: \([^()\n]*\))? ---/g;

/** The text with every page marker replaced by a space. */
export function withoutPageMarkers(text: string): string {
  return text.includes('--- page ') ? text.replace(pageMarkerAnywhere, ' ') : text;
}
