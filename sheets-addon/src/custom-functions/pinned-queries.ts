import { contentHash, type RecordSchema } from '../../../core/index.ts';
import { replyPropertyPrefix } from '../apps-script/cache-service-response-cache.ts';
import { dropOldestProperties } from '../apps-script/drop-oldest-properties.ts';
import { utf8ByteLength } from '../apps-script/utf8-byte-length.ts';

const prefix = 'srag.query.';
/** A property holds at most 9 KB (key and value, in bytes). */
const propertyBytes = 9 * 1024;

interface PinnedQuery {
  sql: string;
  savedAt: number;
}

/** What a pinned query is for: the same question about the same columns, asked of the same model. */
export interface PinnedQueryIdentity {
  question: string;
  table: string;
  schema: RecordSchema;
  model: string;
}

export interface PinnedQueries {
  get(identity: PinnedQueryIdentity): string | undefined;
  pin(identity: PinnedQueryIdentity, sql: string): void;
  /** Forgets every pinned query (Refresh SRAG_ASK queries); returns how many there were. */
  forgetAll(): number;
}

/**
 * The SQL =SRAG_ASK wrote for a question, kept in the document properties. Sheets recalculates
 * the formula whenever a cell of its range changes (every row a batch writes); the pinned query
 * then runs over the new rows without asking the model again. The statistics in the prompt
 * (distinct values, ranges) are those of the rows when the query was written; after Refresh
 * SRAG_ASK queries the next recalculation writes each query anew from the current rows.
 * The key is a hash of question, table, columns (names, types, descriptions, units) and model,
 * so editing the Schema sheet or switching models writes a new query.
 */
export function createPinnedQueries(properties: GoogleAppsScript.Properties.Properties): PinnedQueries {
  return {
    get(identity) {
      const stored = properties.getProperty(keyOf(identity));
      if (!stored) return undefined;
      try {
        const sql = (JSON.parse(stored) as Partial<PinnedQuery>).sql;
        return typeof sql === 'string' && sql.trim() ? sql : undefined;
      } catch {
        return undefined;
      }
    },
    pin(identity, sql) {
      const key = keyOf(identity);
      const value = JSON.stringify({ sql, savedAt: Date.now() } satisfies PinnedQuery);
      if (utf8ByteLength(key) + utf8ByteLength(value) > propertyBytes) return;
      // A full store first gives up cached replies (the model can be asked again), then older queries.
      for (const makeRoom of [() => 0, () => dropOldestProperties(properties, replyPropertyPrefix), () => dropOldestProperties(properties, prefix)]) {
        makeRoom();
        try {
          properties.setProperty(key, value);
          return;
        } catch {
          // No room yet: make more, or leave it unpinned (the next recalculation asks the model).
        }
      }
    },
    forgetAll() {
      const names = properties.getKeys().filter((name) => name.startsWith(prefix));
      for (const name of names) properties.deleteProperty(name);
      return names.length;
    },
  };
}

function keyOf({ question, table, schema, model }: PinnedQueryIdentity): string {
  const columns = schema.attributes.map(({ name, kind, description, unit, scale }) => [name, kind, description, unit ?? null, scale ?? null]);
  return prefix + contentHash(JSON.stringify([question.trim(), table, columns, model]));
}
