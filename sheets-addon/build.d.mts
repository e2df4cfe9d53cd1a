/** Builds the add-on into `distDirectory` (default sheets-addon/dist). */
export function buildSheetsAddon(options?: {
  distDirectory?: string;
  /** Model endpoints a versioned deployment may call (the manifest's urlFetchWhitelist); empty: any. */
  urlFetchAllowlist?: string[];
}): Promise<{ code: string; sidebar: string; functions: string[] }>;
