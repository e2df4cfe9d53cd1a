import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Test files that run for a minute or more, one command after another, so that nothing else can
 * shorten them: the rest of the suite fills the other worker while they run.
 */
const longFiles = ['tests/docs/documented-commands.test.ts'];

/**
 * Vitest's order, with the files of `longFiles` first. Vitest starts the longest files first when
 * it knows their durations from the last run (kept in node_modules/.vite); on a fresh clone it
 * starts the largest first, and these small files would start last and run alone at the end while
 * the other worker idles.
 */
export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isLong = (file: TestSpecification) => longFiles.some((name) => file.moduleId.endsWith(`/${name}`));
    return [...sorted.filter(isLong), ...sorted.filter((file) => !isLong(file))];
  }
}
