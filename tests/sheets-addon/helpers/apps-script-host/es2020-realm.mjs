/**
 * The built-ins an ES2020 engine lacks, removed from a fresh `vm` context so the bundle runs there
 * as it would on a V8 that knows no more than ES2020. Google documents Apps Script's V8 runtime as
 * "modern ECMAScript" without naming a version, so the add-on may rely on ES2020 and nothing newer.
 * A `vm` context already lacks the host APIs Apps Script lacks too (setTimeout, queueMicrotask,
 * structuredClone, TextEncoder, URL, atob); `structuredClone` is listed anyway in case it appears.
 *
 * Plain JavaScript: the execution worker (plain .mjs) imports it as well as the tests.
 */
export const builtInsNewerThanEs2020 = [
  // ES2021
  'String.prototype.replaceAll', 'Promise.any', 'AggregateError', 'WeakRef', 'FinalizationRegistry',
  // ES2022
  'Object.hasOwn', 'Array.prototype.at', 'String.prototype.at', 'TypedArray.prototype.at',
  // ES2023
  'Array.prototype.findLast', 'Array.prototype.findLastIndex', 'TypedArray.prototype.findLast', 'TypedArray.prototype.findLastIndex',
  'Array.prototype.toSorted', 'Array.prototype.toReversed', 'Array.prototype.toSpliced', 'Array.prototype.with',
  'TypedArray.prototype.toSorted', 'TypedArray.prototype.toReversed', 'TypedArray.prototype.with',
  // ES2024
  'Object.groupBy', 'Map.groupBy', 'Promise.withResolvers', 'String.prototype.isWellFormed', 'String.prototype.toWellFormed',
  'ArrayBuffer.prototype.transfer', 'ArrayBuffer.prototype.resize',
  // ES2025 and later
  'Set.prototype.union', 'Set.prototype.intersection', 'Set.prototype.difference', 'Set.prototype.symmetricDifference',
  'Set.prototype.isSubsetOf', 'Set.prototype.isSupersetOf', 'Set.prototype.isDisjointFrom', 'Iterator', 'Promise.try', 'RegExp.escape',
  'Math.f16round', 'Float16Array', 'Array.fromAsync', 'Error.isError',
  // Not ECMAScript at all: the HTML host's deep copy, which Apps Script does not have.
  'structuredClone',
];

/** Source that deletes every name above from the global object it runs against. */
export const es2020RealmSource = `(function (names) {
  var global = this;
  var typedArray = Object.getPrototypeOf(Int8Array);
  names.forEach(function (name) {
    var path = name.split('.');
    var owner = path[0] === 'TypedArray' ? typedArray : global;
    for (var index = path[0] === 'TypedArray' ? 1 : 0; index < path.length - 1; index += 1) {
      owner = owner == null ? undefined : owner[path[index]];
    }
    if (owner != null) delete owner[path[path.length - 1]];
  });
}).call(this, ${JSON.stringify(builtInsNewerThanEs2020)});`;

/** Which of the names a context still has (empty once `es2020RealmSource` ran in it). */
export const remainingNewerBuiltInsSource = `(function (names) {
  var global = this;
  var typedArray = Object.getPrototypeOf(Int8Array);
  return names.filter(function (name) {
    var path = name.split('.');
    var value = path[0] === 'TypedArray' ? typedArray : global;
    for (var index = path[0] === 'TypedArray' ? 1 : 0; index < path.length; index += 1) {
      value = value == null ? undefined : value[path[index]];
    }
    return value !== undefined;
  });
}).call(this, ${JSON.stringify(builtInsNewerThanEs2020)})`;
