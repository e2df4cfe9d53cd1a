/** One line of a documented shell block: the command before any `#` comment, and whether it is skipped. */
export interface DocumentedLine {
  text: string;
  /** The command, without a trailing comment; empty for a comment or blank line. */
  command: string;
  skipped: boolean;
  reason?: string;
}

/** A ```sh block of README.md or docs/*.md (or a ```sql block of README.md), with what its marker says. */
export interface DocumentedBlock {
  document: string;
  /** The line of the opening fence, 1-based. */
  line: number;
  language: 'sh' | 'sql';
  code: string;
  lines: DocumentedLine[];
  /** Runs as on a fresh machine: no OPENAI_* or SRAG_* variables, so nothing points srag at a model. */
  freshMachine: boolean;
}

const markerPattern = /<!-- commands-test: (.*?) -->\s*$/;

/**
 * The blocks of one Markdown document. A block may follow an HTML comment that the commands test
 * reads, directives separated by "; ":
 *   <!-- commands-test: fresh machine; skip `npm install` (why it cannot run here); skip this block (why) -->
 * `skip` names a command exactly as the block writes it (without its comment) and must give a
 * reason; a directive the test does not know, or a skip that matches no command, is an error,
 * so a marker cannot outlive what it marks.
 */
export function readDocumentedBlocks(document: string, markdown: string): DocumentedBlock[] {
  const blocks: DocumentedBlock[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    // A fence may be indented, inside a list item; its lines then carry the same indentation.
    const fence = /^( *)```(\w+)\s*$/.exec(lines[index]!);
    if (!fence) continue;
    const indentation = fence[1]!;
    const end = lines.findIndex((line, position) => position > index && line.startsWith(`${indentation}\`\`\``));
    const language = fence[2]!;
    const code = lines.slice(index + 1, end).map((line) => (line.startsWith(indentation) ? line.slice(indentation.length) : line)).join('\n');
    const marker = index > 0 ? markerPattern.exec(lines[index - 1]!)?.[1] : undefined;
    const fenceLine = index + 1;
    index = end;
    const runnable = ['sh', 'bash', 'shell'].includes(language) || (language === 'sql' && document === 'README.md');
    if (!runnable) {
      if (marker) throw new Error(`${document}:${fenceLine}: a commands-test marker above a ${language} block, which the test does not run`);
      continue;
    }
    const block: DocumentedBlock = {
      document,
      line: fenceLine,
      language: language === 'sql' ? 'sql' : 'sh',
      code,
      lines: code.split('\n').map((text) => ({ text, command: commandOf(text), skipped: false })),
      freshMachine: false,
    };
    for (const directive of marker ? marker.split(/; (?=fresh machine|skip )/) : []) applyDirective(block, directive.trim());
    blocks.push(block);
  }
  return blocks;
}

function applyDirective(block: DocumentedBlock, directive: string): void {
  const where = `${block.document}:${block.line}`;
  if (directive === 'fresh machine') {
    block.freshMachine = true;
    return;
  }
  const wholeBlock = /^skip this block \((.+)\)$/.exec(directive);
  if (wholeBlock) {
    for (const line of block.lines) Object.assign(line, { skipped: true, reason: wholeBlock[1] });
    return;
  }
  const oneCommand = /^skip `([^`]+)` \((.+)\)$/.exec(directive);
  if (!oneCommand) throw new Error(`${where}: the commands-test directive "${directive}" is not one of: fresh machine, skip \`COMMAND\` (REASON), skip this block (REASON)`);
  const matching = block.lines.filter((line) => line.command === oneCommand[1]);
  if (matching.length === 0) throw new Error(`${where}: the commands-test marker skips \`${oneCommand[1]}\`, which the block does not contain`);
  for (const line of matching) Object.assign(line, { skipped: true, reason: oneCommand[2] });
}

/** The command of a shell line: the text before a `#` that starts a comment (outside quotes). */
function commandOf(text: string): string {
  let quote: string | undefined;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index]!;
    if (quote) {
      if (character === quote) quote = undefined;
    } else if (character === '"' || character === "'") {
      quote = character;
    } else if (character === '#' && (index === 0 || /\s/.test(text[index - 1]!))) {
      return text.slice(0, index).trim();
    }
  }
  return text.trim();
}
