import { InvalidArgumentError } from 'commander';

/** Parses an option value that must be a whole number of at least 1 (commander reports the refusal). */
export function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('expected a positive whole number');
  return number;
}

/** Parses a TCP port: a whole number from 1 to 65535 (commander reports the refusal). */
export function portNumber(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > 65_535) throw new InvalidArgumentError('expected a port, a whole number from 1 to 65535');
  return number;
}
