import type { CatalogTable } from './catalog-table.ts';
import { textWords } from './question-phrases.ts';
import { stemWord } from './stem-word.ts';
import { stopWords } from './stop-words.ts';
import type { ValueMention } from './value-mention.ts';

/** How well one table answers to one term, and through what. */
export interface TermHit {
  /** 1 for the table's name or title, 0.9 for a column value, 0.8 for a column name, 0.4 for a description. */
  strength: number;
  /** E.g. `table name`, `column "city"`, `value "Lisbon" of "city"`. */
  through: string;
  /** The column the word matched (its name, description or a value), if it matched a column. */
  column?: string;
}

/** One word of the question (stemmed) and the tables it points at. */
export interface QuestionTerm {
  term: string;
  /** Inverse table frequency: a word that many tables share says little about which is meant. */
  weight: number;
  hits: Map<string, TermHit>;
}

const strengths = { name: 1, value: 0.9, column: 0.8, description: 0.4 } as const;

/** The stemmed words of a text that can point at a table (no stop words). */
export function contentTerms(text: string): string[] {
  return textWords(text).filter((word) => !stopWords.has(word)).map(stemWord);
}

/**
 * Matches the question's words against each table's name, title, column names, descriptions and
 * the column values the question mentions (the lexical half of the ARM paper's information
 * alignment), and weighs each word by how few tables it points at. Words no table answers to are
 * left out: they cannot help choose.
 */
export function matchQuestionTerms(question: string, tables: CatalogTable[], mentions: ValueMention[]): QuestionTerm[] {
  const questionTerms = [...new Set(contentTerms(question))];
  const wanted = new Set(questionTerms);
  const hitsByTerm = new Map<string, Map<string, TermHit>>(questionTerms.map((term) => [term, new Map()]));
  const offer = (term: string, table: string, hit: TermHit) => {
    if (!wanted.has(term)) return;
    // A number in a question is a value to filter on ("over 2 million"), never the "2" of a name like `flights_2`.
    if (hit.strength !== strengths.value && /^\p{N}+$/u.test(term)) return;
    const hits = hitsByTerm.get(term)!;
    const known = hits.get(table);
    if (!known || known.strength < hit.strength) hits.set(table, hit);
  };
  for (const table of tables) {
    for (const term of contentTerms(`${table.name} ${table.schema.title}`)) offer(term, table.name, { strength: strengths.name, through: 'table name' });
    for (const attribute of table.schema.attributes) {
      for (const term of contentTerms(attribute.name)) offer(term, table.name, { strength: strengths.column, through: `column "${attribute.name}"`, column: attribute.name });
      for (const term of contentTerms(attribute.description)) offer(term, table.name, { strength: strengths.description, through: `description of "${attribute.name}"`, column: attribute.name });
    }
    for (const term of contentTerms(table.description ?? '')) offer(term, table.name, { strength: strengths.description, through: 'table description' });
  }
  for (const mention of mentions) {
    for (const term of contentTerms(mention.phrase)) offer(term, mention.table, { strength: strengths.value, through: `value "${mention.phrase}" of "${mention.column}"`, column: mention.column });
  }
  const tableCount = Math.max(1, tables.length);
  return questionTerms
    .map((term) => {
      const hits = hitsByTerm.get(term)!;
      return { term, weight: Math.log(1 + tableCount / Math.max(1, hits.size)), hits };
    })
    .filter((term) => term.hits.size > 0);
}
