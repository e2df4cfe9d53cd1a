import { isWordCharacter } from './character-classes.ts';
import type { Instruction, Program } from './compile-regular-expression.ts';

interface Thread {
  instruction: number;
  slots: number[];
}

/**
 * Pike's VM: the leftmost-first match of `program` in `text` at or after `from`, as the capture
 * slots (UTF-16 offsets, -1 where a group did not take part), or null. Every thread advances one
 * character at a time and at most one thread sits on each instruction, so the time is linear in
 * the text (times the program's size) whatever the pattern: no backtracking. `onSteps` is told the
 * work done, in threads run, every few thousand steps and at the end.
 */
export function runProgram(program: Program, text: string, from: number, onSteps: (steps: number) => void): number[] | null {
  const { instructions } = program;
  const visited = new Int32Array(instructions.length).fill(-1);
  let generation = 0;
  let current: Thread[] = [];
  let next: Thread[] = [];
  let matched: number[] | null = null;
  let steps = 0;
  for (let position = from; ; ) {
    if (matched === null) {
      const start = new Array<number>(program.slotCount).fill(-1);
      steps += follow(instructions, text, current, { instruction: 0, slots: start }, position, visited, generation);
    }
    if (current.length === 0 && matched !== null) break;
    const codePoint = text.codePointAt(position);
    const after = position + (codePoint !== undefined && codePoint > 0xffff ? 2 : 1);
    generation += 1;
    for (const thread of current) {
      const instruction = instructions[thread.instruction]!;
      steps += 1;
      if (instruction.operation === 'match') {
        matched = thread.slots;
        break;
      }
      if (instruction.operation === 'character' && codePoint !== undefined && instruction.test(codePoint)) {
        steps += follow(instructions, text, next, { instruction: thread.instruction + 1, slots: thread.slots }, after, visited, generation);
      }
    }
    if (steps > 4096) {
      onSteps(steps);
      steps = 0;
    }
    if (codePoint === undefined) break;
    [current, next] = [next, []];
    position = after;
  }
  onSteps(steps);
  return matched;
}

/**
 * Adds `thread` to `list` after following its jumps, splits (preferred branch first), saves and
 * assertions at `position`; a thread reaching an instruction already in the list is dropped.
 * An explicit stack, so a long program cannot overflow the call stack. Returns the steps taken.
 */
function follow(instructions: Instruction[], text: string, list: Thread[], thread: Thread, position: number, visited: Int32Array, generation: number): number {
  const stack = [thread];
  let steps = 0;
  while (stack.length) {
    const { instruction: index, slots } = stack.pop()!;
    if (visited[index] === generation) continue;
    visited[index] = generation;
    steps += 1;
    const instruction = instructions[index]!;
    switch (instruction.operation) {
      case 'jump': stack.push({ instruction: instruction.target, slots }); break;
      case 'split': stack.push({ instruction: instruction.other, slots }, { instruction: instruction.preferred, slots }); break;
      case 'save': {
        const saved = slots.slice();
        saved[instruction.slot] = position;
        stack.push({ instruction: index + 1, slots: saved });
        break;
      }
      case 'assert': if (holds(instruction.kind, text, position)) stack.push({ instruction: index + 1, slots }); break;
      default: list.push({ instruction: index, slots });
    }
  }
  return steps;
}

function holds(kind: Extract<Instruction, { operation: 'assert' }>['kind'], text: string, position: number): boolean {
  switch (kind) {
    case 'textStart': return position === 0;
    case 'textEnd': return position === text.length;
    case 'lineStart': return position === 0 || text[position - 1] === '\n';
    case 'lineEnd': return position === text.length || text[position] === '\n';
    default: {
      const boundary = isWordCharacter(text.codePointAt(position - 1)) !== isWordCharacter(text.codePointAt(position));
      return kind === 'wordBoundary' ? boundary : !boundary;
    }
  }
}
