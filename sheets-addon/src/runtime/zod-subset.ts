import { array, boolean, enum as enumOf, null as nullValue, number, object, string, union } from 'zod/v4';

/**
 * The part of zod core uses, for the Apps Script bundle (build.mjs maps `zod` here): the schema
 * builders core imports by name, so that nothing else of zod's 800 KB reaches a bundle that Apps
 * Script evaluates on every call, every custom-function recalculation included.
 */
export { array, boolean, enumOf as enum, nullValue as null, number, object, string, union };
export type { infer, ZodType } from 'zod/v4';
