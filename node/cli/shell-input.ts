import { splitSqlScript } from '../sql-functions/harness/split-sql-script.ts';

/** A dot command (`.tables srag_%`), or the statements of complete SQL input, with the text typed. */
export type ShellEntry =
  | { type: 'dot'; command: string; argument: string; text: string }
  | { type: 'sql'; statements: string[]; text: string };

/** Follows the last statement of a buffer: it comes out as its own statement only when the buffer ends at a statement boundary. */
const probe = '__srag_statement_boundary_probe__';

/**
 * Lines typed into the shell (or piped into `srag sql`) into entries, as the DuckDB CLI reads them:
 * a line starting with "." at a statement boundary is a dot command; SQL collects until a ";" ends
 * its last statement outside any string, identifier or comment.
 */
export class ShellInput {
  private buffer = '';

  /** A dot command line: `.schema hotels` → command `.schema`, argument `hotels`. */
  static dotCommand(line: string): ShellEntry {
    const text = line.trim();
    const [command = '', ...rest] = text.split(/\s+/);
    return { type: 'dot', command: command.toLowerCase(), argument: rest.join(' ').replace(/;$/, ''), text };
  }

  /** True while a statement is unfinished (the shell then shows its continuation prompt). */
  get pending(): boolean {
    return this.buffer.trim() !== '';
  }

  push(line: string): ShellEntry[] {
    if (!this.pending) {
      if (line.trim().startsWith('.')) return [ShellInput.dotCommand(line)];
      if (!line.trim()) return [];
    }
    this.buffer += `${line}\n`;
    // The probe starts a statement of its own on its line only when nothing before it is unfinished.
    const probeLine = this.buffer.split('\n').length + 1;
    const last = splitSqlScript(`${this.buffer}\n${probe}`).at(-1);
    if (last?.line !== probeLine) return [];
    return this.take();
  }

  /** The end of input: what is left runs as it is, even without its final ";". */
  end(): ShellEntry[] {
    return this.pending ? this.take() : [];
  }

  clear(): void {
    this.buffer = '';
  }

  private take(): ShellEntry[] {
    const text = this.buffer.trim();
    this.buffer = '';
    const statements = splitSqlScript(text).map((statement) => statement.sql);
    return statements.length > 0 ? [{ type: 'sql', statements, text }] : [];
  }
}
