/** A key written twice in one JSON object; `path` is the keys leading to that object. */
export interface DuplicateJsonKey {
  path: string[];
  key: string;
}

/**
 * The keys that occur twice in one object of a JSON text, which `JSON.parse` accepts silently
 * (the last one wins). `text` must be valid JSON: this only walks strings and brackets.
 */
export function findDuplicateJsonKeys(text: string): DuplicateJsonKey[] {
  const duplicates: DuplicateJsonKey[] = [];
  // One frame per open bracket: an object's keys so far and the key whose value is being read.
  const frames: Array<{ keys: Set<string> | undefined; key: string | undefined }> = [];
  let expectingKey = false;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index]!;
    if (character === '"') {
      let end = index + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const frame = frames[frames.length - 1];
      if (expectingKey && frame?.keys) {
        const key = JSON.parse(text.slice(index, end + 1)) as string;
        if (frame.keys.has(key)) duplicates.push({ path: frames.slice(0, -1).map((outer) => outer.key ?? '').filter((_, position) => frames[position]!.keys !== undefined), key });
        frame.keys.add(key);
        frame.key = key;
        expectingKey = false;
      }
      index = end;
    } else if (character === '{') {
      frames.push({ keys: new Set(), key: undefined });
      expectingKey = true;
    } else if (character === '[') {
      frames.push({ keys: undefined, key: undefined });
    } else if (character === '}' || character === ']') {
      frames.pop();
    } else if (character === ',') {
      expectingKey = frames[frames.length - 1]?.keys !== undefined;
    }
  }
  return duplicates;
}
