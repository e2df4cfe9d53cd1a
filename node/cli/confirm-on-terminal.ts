import { createInterface } from 'node:readline/promises';

/** Asks a yes/no question on the terminal (stderr); anything but "y" or "yes", or a cancel, is no. */
export async function confirmOnTerminal(question: string, abortSignal: AbortSignal | undefined): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await prompt.question(question, abortSignal ? { signal: abortSignal } : {});
    return /^y(es)?$/i.test(answer.trim());
  } catch {
    return false;
  } finally {
    prompt.close();
  }
}
