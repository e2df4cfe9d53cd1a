import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SragError } from '../../core/index.ts';
import { StoreJournal } from '../../node/duckdb/store/store-journal.ts';

describe('the store journal file', () => {
  it.runIf(existsSync('/dev/full'))('refuses entries it cannot write with STORE_FAILED, naming the file and what to do', () => {
    // /dev/full fails every write with ENOSPC, as a full disk does.
    const journal = StoreJournal.open('/dev/full', 0);
    try {
      let failure: unknown;
      try {
        journal.appendSync([{ kind: 'log', logName: 'srag_extract:Hotel:test', entry: { source: '/docs/a.md', contentHash: 'a', status: 'empty', error: null } }]);
      } catch (error) {
        failure = error;
      }
      expect(SragError.isInstance(failure) && failure.code).toBe('STORE_FAILED');
      expect((failure as SragError).message).toMatch(/^cannot write to \/dev\/full: ENOSPC: no space left on device/);
      expect((failure as SragError).hint).toMatch(/^fix the cause \(disk space, permissions\) and run the statement again/);
    } finally {
      journal.close();
    }
  });
});
