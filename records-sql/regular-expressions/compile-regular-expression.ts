import { sqlFailure } from '../sql-failure.ts';
import type { AssertionKind, CharacterTest, ParsedRegularExpression, RegularExpressionNode } from './regular-expression-syntax.ts';

/** One instruction of the matching program (Thompson's construction, as in RE2 and Pike's VM). */
export type Instruction =
  | { operation: 'character'; test: CharacterTest }
  | { operation: 'split'; preferred: number; other: number }
  | { operation: 'jump'; target: number }
  | { operation: 'save'; slot: number }
  | { operation: 'assert'; kind: AssertionKind }
  | { operation: 'match' };

export interface Program {
  instructions: Instruction[];
  /** Capture slots: a start and an end for the whole match (group 0) and for each group. */
  slotCount: number;
}

/** Counted repetitions copy their body; a program larger than this is refused (RE2 has a like limit). */
const maximumInstructions = 20_000;

/** The program for a parsed pattern, with the whole match saved in slots 0 and 1. */
export function compileRegularExpression(parsed: ParsedRegularExpression, pattern: string): Program {
  const instructions: Instruction[] = [];
  const emit = (instruction: Instruction): number => {
    if (instructions.length >= maximumInstructions) sqlFailure(`Invalid Input Error: the regular expression "${pattern}" is too large for the spreadsheet SQL engine; write it with fewer counted repetitions`);
    return instructions.push(instruction) - 1;
  };
  const compile = (node: RegularExpressionNode): void => {
    switch (node.type) {
      case 'character': emit({ operation: 'character', test: node.test }); return;
      case 'assertion': emit({ operation: 'assert', kind: node.kind }); return;
      case 'sequence': node.items.forEach(compile); return;
      case 'group':
        if (node.capture !== undefined) emit({ operation: 'save', slot: 2 * node.capture });
        compile(node.body);
        if (node.capture !== undefined) emit({ operation: 'save', slot: 2 * node.capture + 1 });
        return;
      case 'alternation': {
        const jumps: Array<{ operation: 'jump'; target: number }> = [];
        node.options.forEach((option, index) => {
          const split = index < node.options.length - 1 ? { operation: 'split' as const, preferred: 0, other: 0 } : undefined;
          if (split) split.preferred = emit(split) + 1;
          compile(option);
          if (split) {
            const jump = { operation: 'jump' as const, target: 0 };
            emit(jump);
            jumps.push(jump);
            split.other = instructions.length;
          }
        });
        for (const jump of jumps) jump.target = instructions.length;
        return;
      }
      case 'repeat': {
        if (node.maximum === Infinity) {
          // As RE2 compiles them: x{n,} is n-1 copies then x+, and x+ loops back into the same
          // instructions, so an iteration that matched nothing cannot be tried again at the same
          // place; x* over a body that can match nothing is (x+)?. Pike's VM then picks RE2's match.
          for (let count = 1; count < node.minimum; count += 1) compile(node.body);
          const optional = node.minimum === 0 ? { operation: 'split' as const, preferred: 0, other: 0 } : undefined;
          const skip = optional ? emit(optional) : -1;
          if (optional && !nullable(node.body)) {
            compile(node.body);
            emit({ operation: 'jump', target: skip });
            orderBranches(optional, skip + 1, instructions.length, node.greedy);
            return;
          }
          const begin = instructions.length;
          compile(node.body);
          const loop = { operation: 'split' as const, preferred: 0, other: 0 };
          emit(loop);
          orderBranches(loop, begin, instructions.length, node.greedy);
          if (optional) orderBranches(optional, begin, instructions.length, node.greedy);
          return;
        }
        for (let count = 0; count < node.minimum; count += 1) compile(node.body);
        const splits: Array<{ operation: 'split'; preferred: number; other: number }> = [];
        for (let count = node.minimum; count < node.maximum; count += 1) {
          const split = { operation: 'split' as const, preferred: 0, other: 0 };
          split.preferred = emit(split) + 1;
          splits.push(split);
          compile(node.body);
        }
        for (const split of splits) orderBranches(split, split.preferred, instructions.length, node.greedy);
      }
    }
  };
  emit({ operation: 'save', slot: 0 });
  compile(parsed.root);
  emit({ operation: 'save', slot: 1 });
  emit({ operation: 'match' });
  return { instructions, slotCount: 2 * (parsed.groupCount + 1) };
}

/** Whether a node can match the empty text. */
function nullable(node: RegularExpressionNode): boolean {
  switch (node.type) {
    case 'character': return false;
    case 'assertion': return true;
    case 'sequence': return node.items.every(nullable);
    case 'alternation': return node.options.some(nullable);
    case 'group': return nullable(node.body);
    case 'repeat': return node.minimum === 0 || nullable(node.body);
  }
}

/** A greedy repetition prefers another round of its body; a lazy one prefers to stop. */
function orderBranches(split: { preferred: number; other: number }, body: number, exit: number, greedy: boolean): void {
  split.preferred = greedy ? body : exit;
  split.other = greedy ? exit : body;
}
