import { SragError } from '../../core/index.ts';

/** A whole-number setting from the environment, its default when unset or empty, or the one-line error that names it. */
export function positiveIntegerSetting(environment: Record<string, string | undefined>, name: string, fallback: number, allowZero = false): number {
  const raw = environment[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < (allowZero ? 0 : 1)) {
    throw new SragError({ code: 'INPUT_INVALID', message: `${name}=${JSON.stringify(raw)} is not a ${allowZero ? 'non-negative' : 'positive'} whole number`, hint: `unset it for the default (${fallback})` });
  }
  return value;
}
