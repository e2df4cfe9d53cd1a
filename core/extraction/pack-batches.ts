export interface PackBatchesOptions {
  /** Tokens of each document as the batch prompt shows it (its text and its delimiting lines). */
  documentTokens: readonly number[];
  /** Tokens of the batch instructions, sent once per call. */
  instructionTokens: number;
  /** The most prompt tokens a call may have: the input budget less room for framing. */
  budgetTokens: number;
  /** The most documents in one call. */
  maxDocuments: number;
}

/** Instructions shorter than this count as this long for the rule below: short ones do not make every page long. */
const leastInstructionTokens = 500;
/** A document of at most this many tokens (its delimiting lines included) is never sent alone for its length, whatever the instructions. */
export const neverLongTokens = 2 * leastInstructionTokens;

/**
 * Which documents share a call, in order: a call takes the next document while the instructions
 * plus its documents stay within the budget and it holds fewer than `maxDocuments`. A document
 * longer than twice the instructions goes alone (the prefix it would share is under a third of
 * its call: sharing saves little and puts a long record among others), as does one that does not
 * fit beside the instructions (it takes the one-document path, which splits it into parts).
 * Returns the documents' positions, one array per call (a document sent alone may come before
 * the call of the documents around it).
 */
export function packBatches({ documentTokens, instructionTokens, budgetTokens, maxDocuments }: PackBatchesOptions): number[][] {
  const longDocument = 2 * Math.max(instructionTokens, leastInstructionTokens);
  const calls: number[][] = [];
  let current: number[] = [];
  let currentTokens = instructionTokens;
  const close = () => {
    if (current.length) calls.push(current);
    current = [];
    currentTokens = instructionTokens;
  };
  documentTokens.forEach((tokens, position) => {
    if (tokens > longDocument || instructionTokens + tokens > budgetTokens) {
      calls.push([position]);
      return;
    }
    if (current.length >= maxDocuments || currentTokens + tokens > budgetTokens) close();
    current.push(position);
    currentTokens += tokens;
  });
  close();
  return calls;
}
