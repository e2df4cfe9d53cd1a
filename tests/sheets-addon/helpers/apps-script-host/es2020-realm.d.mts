/** Built-ins newer than ES2020 (dotted paths; `TypedArray` is %TypedArray%). */
export const builtInsNewerThanEs2020: string[];
/** Source that deletes them from the global object of the context it runs in. */
export const es2020RealmSource: string;
/** Source whose value is the names a context still has. */
export const remainingNewerBuiltInsSource: string;
