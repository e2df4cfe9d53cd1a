/** The prompt templates core renders; each is the text of `prompts/<name>.md`. */
export const promptNames = [
  'predict-schema-first',
  'refine-schema',
  'extract-record',
  'extract-record-batch',
  'synthesize-extractors',
  'generate-sql',
  'repair-sql',
  'answer',
  'answer-from-context',
  'answer-from-documents',
  'judge-answer-comparison',
  'judge-answer-recall-claims',
  'judge-claim-supported',
  'target-schema',
] as const;

export type PromptName = (typeof promptNames)[number];

/**
 * Prompt texts are handed to core rather than read by it: Node reads `prompts/*.md` from disk,
 * the Sheets bundle inlines them with esbuild's text loader, so core stays free of file access.
 */
export type PromptLibrary = Record<PromptName, string>;
