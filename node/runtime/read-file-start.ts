import { closeSync, openSync, readSync } from 'node:fs';

/** The first `bytes` bytes of a file (fewer when it is shorter), without reading the rest. */
export function readFileStart(path: string, bytes: number): Buffer {
  const buffer = Buffer.alloc(bytes);
  const descriptor = openSync(path, 'r');
  try {
    return buffer.subarray(0, readSync(descriptor, buffer, 0, bytes, 0));
  } finally {
    closeSync(descriptor);
  }
}
