/** One document to extract, as a surface hands it to the run. */
export interface DocumentSource {
  /**
   * The document's identity in the store and the ingestion log. It must not depend on the working
   * directory: the CLI and the SQL functions use the canonical absolute path, the Sheets add-on
   * the Documents row's name or Drive file id.
   */
  source: string;
  /** How messages and progress name the document (a path relative to the working directory); default `source`. */
  label?: string;
  read(): Promise<string>;
}
