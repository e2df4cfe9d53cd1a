export type { CatalogTable } from './catalog-table.ts';
export { linkStrength, type TableLink } from './table-link.ts';
export type { ValueMention } from './value-mention.ts';
export type { TableCatalog } from './table-catalog.ts';
export { questionPhrases, textWords } from './question-phrases.ts';
export { matchQuestionTerms, type QuestionTerm, type TermHit } from './match-question-terms.ts';
export { solveTableSet, type TableSetSolution } from './solve-table-set.ts';
export { chooseTables, type ChooseTablesOptions, type TableChoice } from './choose-tables.ts';
export { relateChildTables } from './relate-child-tables.ts';
