/**
 * Frees room in a property store (500 KB in all): deletes the older half of the properties whose
 * name starts with `prefix`, oldest `savedAt` first. Each value must be JSON with a `savedAt`.
 */
export function dropOldestProperties(properties: GoogleAppsScript.Properties.Properties, prefix: string): number {
  const entries = Object.entries(properties.getProperties())
    .filter(([name]) => name.startsWith(prefix))
    .map(([name, value]) => ({ name, savedAt: savedAtOf(value) }))
    .sort((left, right) => left.savedAt - right.savedAt);
  const dropped = entries.slice(0, Math.ceil(entries.length / 2));
  for (const entry of dropped) properties.deleteProperty(entry.name);
  return dropped.length;
}

function savedAtOf(value: string): number {
  try {
    const savedAt = (JSON.parse(value) as { savedAt?: unknown }).savedAt;
    return typeof savedAt === 'number' ? savedAt : 0;
  } catch {
    return 0;
  }
}
