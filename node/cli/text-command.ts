import { existsSync } from 'node:fs';
import { documentText, extractionParts, SragError, type RecordSchema } from '../../core/index.ts';
import { loadPromptLibrary } from '../runtime/load-prompt-library.ts';
import { readDocumentFile } from '../runtime/read-document-file.ts';
import { readSettings } from '../runtime/read-settings.ts';
import { SragStore } from '../duckdb/store/srag-store.ts';
import { readSchemaFile } from '../runtime/read-schema-file.ts';

export interface TextCommandOptions {
  parts?: boolean;
  schema?: string;
  db: string;
  table?: string;
  evidence: boolean;
}

const number = new Intl.NumberFormat('en-US');

/**
 * `srag text <document>`: the document's text exactly as the model reads it (a PDF laid out with
 * page markers and table rows, a Word file or a web page reduced). With `--parts`, the user
 * messages `srag ingest` sends for it, each with its token count: the parts depend on the schema,
 * whose instructions share the input budget, so the schema comes from `--schema` or from the
 * table in `--db`.
 */
export async function textCommand(document: string, options: TextCommandOptions): Promise<number> {
  const text = documentText(document, await readDocumentFile(document));
  if (!options.parts) {
    process.stdout.write(`${text.replace(/\n+$/, '')}\n`);
    return 0;
  }
  const schema = options.schema ? await readSchemaFile(options.schema) : await storedSchema(options);
  const settings = readSettings();
  const { countTokens } = await import('../runtime/count-tokens.ts');
  const split = extractionParts({
    prompts: loadPromptLibrary(),
    schema,
    text,
    withEvidence: options.evidence,
    maxInputTokens: settings.maxInputTokens,
    countTokens,
  });
  const count = split.parts.length;
  const lines = [
    `${document}: ${count} ${count === 1 ? 'part' : 'parts'}; a part may hold ${number.format(split.partTokens)} tokens ` +
      `(input budget ${number.format(settings.maxInputTokens)} less ${number.format(split.instructionTokens)} for the instructions and schema, and room for the reply)`,
  ];
  split.messages.forEach((message, index) => {
    lines.push('', `── part ${index + 1} of ${count} · ${number.format(countTokens(message))} tokens ──`, message);
  });
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

/** The schema of the table in `--db`, for a document already ingested there. */
async function storedSchema(options: TextCommandOptions): Promise<RecordSchema> {
  if (!existsSync(options.db)) {
    throw new SragError({
      code: 'INPUT_INVALID',
      message: `--parts needs the schema the document is extracted with, and there is no ${options.db}`,
      hint: 'pass --schema schema.json, or --db with the database you ingest into',
    });
  }
  const store = await SragStore.open(options.db);
  try {
    return (await store.tableInfo(options.table)).schema;
  } finally {
    store.close();
  }
}
