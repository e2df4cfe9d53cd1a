/** JSON texts by object: an object a request carries is treated as immutable once it is sent. */
const texts = new WeakMap<object, string>();

/**
 * `JSON.stringify(value)` for an object a model request carries (its messages, its output schema),
 * written once per object: the request's cache key and the body the wire sends both need it, and a
 * run sends the same output schema with every call. A batch call's messages are ~10 kB of text
 * (14 kB with the schema) that were written two times per call, and converted again.
 */
export function requestJsonText(value: object): string {
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}
