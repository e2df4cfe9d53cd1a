/**
 * `Object.hasOwn` (ES2022) for the Apps Script bundle, which may rely on ES2020 only: build.mjs
 * points every `Object.hasOwn` in the bundle (the hashing library calls it as the bundle loads,
 * the HTML parser for every attribute) at this function, leaving the global `Object` untouched.
 */
export function objectHasOwn(object: object, key: PropertyKey): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}
