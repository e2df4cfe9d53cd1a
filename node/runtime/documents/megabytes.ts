/** A size as messages give it: `1,024 MB`, `0.5 MB`. */
export function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB`;
}
