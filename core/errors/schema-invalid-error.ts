import { describeSchemaProblems } from '../schema/render-schema-problem.ts';
import type { SchemaProblem } from '../schema/schema-problem.ts';
import { SragError } from './srag-error.ts';

/** A schema file or predicted schema is outside the supported JSON-Schema subset. */
export class SchemaInvalidError extends SragError {
  /** The property at fault, when one is (the first, when there are several). */
  readonly property: string | undefined;
  /** Where the schema came from (a file path, "model output"). */
  readonly source: string | undefined;
  /** Every problem found, each naming its property, key and fix; empty for errors built from a message. */
  readonly problems: SchemaProblem[];

  constructor({ message, hint, property, source, cause, problems = [] }: { message: string; hint?: string; property?: string; source?: string; cause?: unknown; problems?: SchemaProblem[] }) {
    super({ code: 'SCHEMA_INVALID', message, hint, cause });
    this.name = 'SchemaInvalidError';
    this.property = property;
    this.source = source;
    this.problems = problems;
  }

  /** One error for all of a schema's problems, worded by `describeSchemaProblems`. */
  static fromProblems(source: string, problems: SchemaProblem[]): SchemaInvalidError {
    return new SchemaInvalidError({ ...describeSchemaProblems(source, problems), property: problems.find((problem) => problem.property !== undefined)?.property, source, problems });
  }

  /**
   * Narrower than `SragError.isInstance`: only errors of this class's code that carry its fields.
   * An `SragError` with the code alone (one rebuilt from a worker's reply) is not one.
   */
  static override isInstance(error: unknown): error is SchemaInvalidError {
    return SragError.isInstance(error) && error.code === 'SCHEMA_INVALID' && Array.isArray((error as { problems?: unknown }).problems);
  }
}
