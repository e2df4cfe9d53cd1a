import { closeSync, ftruncateSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import type { CachedResponse } from '../../../core/index.ts';

/** One line of the file: a reply and the key srag_cache keeps it under. */
export interface JournaledReply {
  key: string;
  response: CachedResponse;
}

/**
 * An extraction run's model replies, appended to `<database>.replies` (one JSON line each) the
 * moment each is read, before anything else happens to it: a process killed afterwards — even with
 * kill -9 — has it on disk, since what a write hands the kernel outlives the process. The store's
 * group commit then moves it into srag_cache; when none is left waiting the file is emptied, and
 * the next open of the database moves what a killed run left (`read`). A plain file, not
 * `srag_journal` (the SQL functions' journal): a DuckDB append commits, ~0.9 ms of CPU and ~2 ms
 * with the JavaScript thread blocked per reply, where this write takes ~0.02 ms (a run of one
 * document per call journals every document). It does not survive a power cut, as a commit would:
 * a lost reply is paid again, never a wrong one kept.
 */
export class ReplyJournal {
  private constructor(private readonly file: number, private written = false) {}

  /** The file of the database at `databasePath`. */
  static fileOf(databasePath: string): string {
    return `${databasePath}.replies`;
  }

  static open(databasePath: string): ReplyJournal {
    return new ReplyJournal(openSync(ReplyJournal.fileOf(databasePath), 'a'));
  }

  /** The replies a run left in the file, in order; a last line cut short by a kill is left out. */
  static read(databasePath: string): JournaledReply[] {
    let text: string;
    try {
      text = readFileSync(ReplyJournal.fileOf(databasePath), 'utf8');
    } catch {
      return [];
    }
    const replies: JournaledReply[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        replies.push(JSON.parse(line) as JournaledReply);
      } catch {
        // a line cut short: the process died while writing it, before the reply was used
      }
    }
    return replies;
  }

  static remove(databasePath: string): void {
    rmSync(ReplyJournal.fileOf(databasePath), { force: true });
  }

  append(reply: JournaledReply): void {
    writeSync(this.file, `${JSON.stringify(reply)}\n`);
    this.written = true;
  }

  /** Empties the file: every reply in it is in srag_cache. */
  clear(): void {
    if (!this.written) return;
    ftruncateSync(this.file, 0);
    this.written = false;
  }

  close(): void {
    closeSync(this.file);
  }
}
