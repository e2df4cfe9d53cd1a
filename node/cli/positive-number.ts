import { InvalidArgumentError } from 'commander';

/** Parses an option value that must be a number above 0, such as a budget in US dollars (commander reports the refusal). */
export function positiveNumber(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new InvalidArgumentError('expected a number above 0, e.g. 0.50');
  return number;
}
