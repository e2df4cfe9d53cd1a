import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from 'docx';

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
