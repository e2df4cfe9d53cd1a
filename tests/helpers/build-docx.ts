import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from 'docx';
import type { ZipEntrySpec } from './build-zip.ts';

export type DocxBlock =
  | { heading: 1 | 2 | 3; text: string }
  | { paragraph: string }
  | { table: Array<Array<string | { text: string; rowSpan?: number; columnSpan?: number }>> };

const headingLevels = { 1: HeadingLevel.HEADING_1, 2: HeadingLevel.HEADING_2, 3: HeadingLevel.HEADING_3 } as const;

/**
 * A Word `.docx` file as Word writes one (the `docx` package builds the same OOXML parts): headings
 * in the Heading styles, plain paragraphs, and tables whose merged cells are real merges (vertical
 * merges for `rowSpan`, grid spans for `columnSpan`), not repeated text.
 */
export async function buildDocx(blocks: DocxBlock[]): Promise<Buffer> {
  const children = blocks.map((block) => {
    if ('heading' in block) return new Paragraph({ text: block.text, heading: headingLevels[block.heading] });
    if ('paragraph' in block) return new Paragraph({ text: block.paragraph });
    return new Table({
      rows: block.table.map((row) => new TableRow({
        children: row.map((cell) => {
          const { text, rowSpan, columnSpan } = typeof cell === 'string' ? { text: cell } : cell;
          return new TableCell({ children: [new Paragraph({ text })], rowSpan, columnSpan });
        }),
      })),
    });
  });
  return Packer.toBuffer(new Document({ sections: [{ children }] }));
}

/**
 * The three parts mammoth needs to read a Word file, as zip entries for `buildZip`, so that a test
 * can write a hostile one: `documentXml` is the main part's entry, its name aside (by default one
 * paragraph, "Harbour View Hotel").
 */
export function minimalDocxParts(documentXml: Omit<ZipEntrySpec, 'name'> = { content: wordDocumentXml('<w:p><w:r><w:t>Harbour View Hotel</w:t></w:r></w:p>') }): ZipEntrySpec[] {
  return [
    {
      name: '[Content_Types].xml',
      content: '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    },
    {
      name: '_rels/.rels',
      content: '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    },
    { name: 'word/document.xml', ...documentXml },
  ];
}

/** A main document part around `body` (paragraphs as `<w:p>` elements). */
export function wordDocumentXml(body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`;
}
