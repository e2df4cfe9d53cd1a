/**
 * How a runtime reads the documents a table was made from, again: by the path its ingestion log
 * keeps (a PDF or Word file through its parser, as ingestion read it), and how it names one to a user.
 */
export interface DocumentFiles {
  read(source: string): Promise<string>;
  label(source: string): string;
}
