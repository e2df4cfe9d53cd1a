import { SragError } from '../../../core/index.ts';

/**
 * When the reading of one document must be over (SRAG_READ_TIMEOUT_MS from its start). Reading runs on
 * the thread that runs everything else, so a timer cannot stop a parser in the middle of its work:
 * readers `check` it between steps (a PDF between pages), and `race` a step that gives the thread
 * back while it works (mammoth's unzipping), leaving that step to finish on its own, its result unused.
 */
export class ReadingDeadline {
  private readonly endsAt: number;

  constructor(private readonly label: string, private readonly milliseconds: number, private readonly now: () => number = () => performance.now()) {
    this.endsAt = now() + milliseconds;
  }

  /** Throws the document's error once the time is up; `progress` says how far it got, e.g. `stopped at page 812 of 5,000`. */
  check(progress?: string): void {
    if (this.now() > this.endsAt) throw this.exceeded(progress);
  }

  /** `step`'s result, or the document's error if the time is up first. */
  async race<T>(step: Promise<T>): Promise<T> {
    this.check();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeUp = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(this.exceeded()), Math.max(0, this.endsAt - this.now()));
    });
    try {
      return await Promise.race([step, timeUp]);
    } finally {
      clearTimeout(timer);
    }
  }

  private exceeded(progress?: string): SragError {
    return new SragError({
      code: 'DOCUMENT_UNREADABLE',
      message: `${this.label} took more than ${(this.milliseconds / 1000).toLocaleString('en-US')} s to read${progress ? ` (${progress})` : ''}`,
      hint: 'split it into smaller documents, or raise SRAG_READ_TIMEOUT_MS',
    });
  }
}
