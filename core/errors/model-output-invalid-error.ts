import { SragError } from './srag-error.ts';

/** The model answered, but its text could not be parsed or did not match the requested shape. */
export class ModelOutputInvalidError extends SragError {
  /** The raw text the model returned, kept as evidence. */
  readonly text: string;
  /** One line per problem found (JSON syntax, missing field, wrong type). */
  readonly problems: string[];

  constructor({ step, text, problems, cause }: { step: string; text: string; problems: string[]; cause?: unknown }) {
    super({
      code: 'MODEL_OUTPUT_INVALID',
      message: `${step}: the model's reply could not be used: ${problems.slice(0, 3).join('; ')}`,
      cause,
    });
    this.name = 'ModelOutputInvalidError';
    this.text = text;
    this.problems = problems;
  }

  /** Narrower than `SragError.isInstance`, which is true for every SragError (a 401, a cancel). */
  static override isInstance(error: unknown): error is ModelOutputInvalidError {
    return SragError.isInstance(error) && error.code === 'MODEL_OUTPUT_INVALID';
  }
}
