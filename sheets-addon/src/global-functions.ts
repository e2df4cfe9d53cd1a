/**
 * Every function the bundle exposes to Apps Script. esbuild wraps the bundle in one closure, but
 * Apps Script finds menu handlers, triggers, google.script.run targets and custom functions only
 * as top-level function declarations — and Sheets shows a custom function's help only from its
 * own JSDoc. build.mjs reads this list from the built bundle and writes one top-level wrapper per
 * entry, with this JSDoc and these parameter names.
 */
export interface GlobalFunction {
  name: string;
  parameters: Array<{ name: string; type?: string; description?: string; optional?: boolean }>;
  description: string;
  returns?: string;
  /** Sheets lists it as a formula (=NAME) and shows this JSDoc as its help. */
  customFunction?: boolean;
}

export const globalFunctions: GlobalFunction[] = [
  { name: 'onOpen', parameters: [{ name: 'event' }], description: 'Adds the srag menu (runs when the spreadsheet opens).' },
  { name: 'onInstall', parameters: [{ name: 'event' }], description: 'Adds the srag menu right after the add-on is installed.' },
  { name: 'showSidebar', parameters: [], description: 'Menu: opens the srag sidebar.' },
  { name: 'showSettings', parameters: [], description: 'Menu: opens the sidebar at Settings.' },
  { name: 'showPredictSchema', parameters: [], description: 'Menu: opens the sidebar at Predict schema.' },
  { name: 'menuAddDriveFiles', parameters: [], description: 'Menu: opens the Google Picker; the files picked become Documents rows.' },
  { name: 'getDrivePickerSettings', parameters: [], description: 'Picker dialog: the token, API key and Cloud project number the Google Picker needs.' },
  { name: 'addDriveFiles', parameters: [{ name: 'files', type: 'Array<Object>', description: '[{id, name}] as the Picker returns them.' }], description: 'Picker dialog: adds the picked files to the Documents sheet as Drive links.' },
  { name: 'menuExtractAll', parameters: [], description: 'Menu: opens the sidebar and extracts every document.' },
  { name: 'menuExtractSelection', parameters: [], description: 'Menu: opens the sidebar and extracts the selected rows.' },
  { name: 'menuStopExtraction', parameters: [], description: 'Menu: stops the running extraction.' },
  { name: 'menuRefreshAskQueries', parameters: [], description: 'Menu: forgets the queries =SRAG_ASK pinned, so each formula writes its query again from the current rows.' },
  { name: 'getSidebarState', parameters: [], description: 'Sidebar: settings (never the key), sheets and batch progress.' },
  { name: 'getProgress', parameters: [], description: 'Sidebar: the batch progress from the Records status column.' },
  { name: 'saveSettings', parameters: [{ name: 'settings', type: 'Object', description: '{baseUrl, apiKey, model}; an empty apiKey keeps the saved one.' }], description: 'Sidebar: saves the model settings in your user properties.' },
  { name: 'setUpSheets', parameters: [], description: 'Sidebar: creates the Documents and Schema sheets.' },
  { name: 'predictSchemaFromDocuments', parameters: [{ name: 'request', type: 'Object', description: '{questions, sampleSize, iterations}' }], description: 'Sidebar: predicts a schema from sample documents and questions into the Schema sheet.' },
  { name: 'importSchemaJson', parameters: [{ name: 'text', type: 'string', description: 'A schema.json as srag writes it.' }], description: 'Sidebar: writes a schema JSON into the Schema sheet.' },
  { name: 'startExtraction', parameters: [{ name: 'request', type: 'Object', description: '{scope: "all" | "selection"}' }], description: 'Sidebar: queues the rows that need a record.' },
  { name: 'extractNextChunk', parameters: [{ name: 'request', type: 'Object', description: '{claimId, maxDocuments}' }], description: 'Sidebar: extracts one chunk of queued rows.' },
  { name: 'releaseClaim', parameters: [{ name: 'claimId', type: 'string' }], description: 'Sidebar: gives back the rows of a chunk whose call failed.' },
  { name: 'stopExtraction', parameters: [], description: 'Sidebar: stops the batch.' },
  {
    name: 'SRAG_EXTRACT',
    parameters: [
      { name: 'text', type: 'string', description: 'The document text (HTML is reduced to text).' },
      { name: 'schema_range', type: 'Array<Array<string>>', description: 'The Schema table with its header row, e.g. Schema!A1:E15.' },
    ],
    description: 'Extracts one record from a text with an LLM: one typed value per schema attribute, spilled across the row. Replies are cached by content.',
    returns: 'One row of values, in the order of the schema\'s attributes.',
    customFunction: true,
  },
  {
    name: 'SRAG_ASK',
    parameters: [
      { name: 'question', type: 'string', description: 'A question about the records, e.g. "How many hotels are in Spain?"' },
      { name: 'records_range', type: 'Array<Array<string>>', description: 'The records with their header row, e.g. Records!A1:R. With a _status column only done rows count.' },
      { name: 'with_query', type: 'boolean', description: 'Default TRUE: the query that was run goes in the next column. FALSE gives the bare answer.', optional: true },
    ],
    description: 'Answers an aggregate question over records: an LLM writes one SQL query and srag runs it over the range; the LLM never does the arithmetic.',
    returns: 'The answer (a value, or a table with a header row) and, to its right, the query it ran.',
    customFunction: true,
  },
];
