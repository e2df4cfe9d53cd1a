import type { ErrorFix } from '../../core/errors/error-fix.ts';

/** What the page offers for an error's fix: words, then buttons; clicking one does the request again with its `value`. */
export interface FixChoices {
  lead: string;
  choices: Array<{ label: string; value: string }>;
}

/** At most this many buttons; a longer list ends with the rest unsaid ("…"), as the other surfaces cut it. */
const maximumChoices = 12;

/**
 * An error's fix (data every edge words its own way) as the page's choices: the tables to name,
 * the items of a list to name, extending the schema, or answering from SQL alone — never only
 * words a user would have to act on elsewhere.
 */
export function fixChoices(fix: ErrorFix): FixChoices {
  switch (fix.kind) {
    case 'name-table':
      return { lead: 'Name a table:', choices: fix.choices.slice(0, maximumChoices).map((table) => ({ label: table, value: table })) };
    case 'name-item':
      return { lead: 'Name the item:', choices: fix.choices.slice(0, maximumChoices).map((item) => ({ label: item, value: item })) };
    case 'extend-schema':
      return {
        lead: `The table${fix.table ? ` ${fix.table}` : ''} lacks what the question needs.`,
        choices: [{ label: 'Add the missing attributes and answer (extracts only them from every document)', value: fix.table ?? '' }],
      };
    case 'answer-from-sql':
      return { lead: '', choices: [{ label: 'Answer from the SQL rows alone', value: '' }] };
    case 'price-model':
      // Nothing the page can do itself: the price is the server's setting.
      return { lead: `srag knows no price for ${fix.model}: start srag serve with SRAG_PRICES naming a JSON file of prices, or ingest without a spending limit.`, choices: [] };
    case 'rename-table':
      return { lead: `Name the table something other than ${fix.table}${fix.drop ? `, or drop ${fix.drop} from the database first (srag drop ${fix.drop})` : ''}.`, choices: [] };
    case 'add-a-table':
      // The page shows its ingest form on an empty database.
      return { lead: 'The database holds no table yet: ingest documents with the form below.', choices: [] };
  }
}
