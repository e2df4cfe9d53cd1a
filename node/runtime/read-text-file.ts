import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { SragError, type SragErrorCode } from '../../core/index.ts';

export interface UnreadableFile {
  /** The code of the error when the file cannot be read: INPUT_INVALID for an argument (the default), DOCUMENT_UNREADABLE for a document. */
  code?: SragErrorCode;
  /** What the file is, as the message names it, e.g. `the schema file`. */
  what?: string;
  /** How to fix it, e.g. `write one with srag schema`. */
  hint?: string;
  /** How the message names the file, when not by `path` (a document's path from the working directory). */
  shownAs?: string;
}

/**
 * A UTF-8 file's text, or one line that names the file and the system's reason:
 * `cannot read the schema file schema.json (ENOENT)`. Every file srag reads under Node comes through here.
 */
export async function readTextFile(path: string, unreadable: UnreadableFile = {}): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw unreadableFileError(path, error, unreadable);
  }
}

/** `readTextFile` for a binary file (a PDF, a Word document): its bytes, or the same one-line error. */
export async function readFileBytes(path: string, unreadable: UnreadableFile = {}): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    throw unreadableFileError(path, error, unreadable);
  }
}

/** `readTextFile` for a caller that cannot wait, such as DuckDB's bind callback. */
export function readTextFileSync(path: string, unreadable: UnreadableFile = {}): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw unreadableFileError(path, error, unreadable);
  }
}

function unreadableFileError(path: string, error: unknown, { code = 'INPUT_INVALID', what, hint, shownAs = path }: UnreadableFile): SragError {
  const reason = (error as { code?: string }).code ?? 'error';
  return new SragError({ code, message: `cannot read ${what ? `${what} ` : ''}${shownAs} (${reason})`, hint, cause: error });
}
