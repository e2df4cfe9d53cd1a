import type { DocumentSource } from '../../core/index.ts';
import { friendlyPath } from './friendly-path.ts';
import { readDocumentFile } from './read-document-file.ts';

/** The document at `source` (a canonical absolute path, as `_source` holds it), shown from the working directory. */
export function documentAtPath(source: string): DocumentSource {
  return documentAtPathShownAs(source, friendlyPath(source));
}

/**
 * The document at `source`, shown as `label`. Its read gives the event loop a turn, then reads the
 * file in one blocking call: an asynchronous read is four trips through the thread pool (open,
 * stat, read, close), ten times a small file's blocking one — and without the turn, a run reading
 * its documents one after another would read hundreds before it read a model's reply or sent a
 * request (a reply not yet read is one a kill would make srag pay for again).
 *
 * An ingest holds one for every document it was given for the whole run, so it keeps nothing but
 * its two strings: `read` is the class's, where a closure per document (and its context) cost
 * ~110 bytes each, 11 MB of heap at 100,000 documents.
 */
export function documentAtPathShownAs(source: string, label: string): DocumentSource {
  return new DocumentAtPath(source, label);
}

class DocumentAtPath implements DocumentSource {
  constructor(readonly source: string, readonly label: string) {}

  async read(): Promise<string> {
    await new Promise((resolve) => setImmediate(resolve));
    return readDocumentFile(this.source, { shownAs: this.label, blocking: true });
  }
}
