import { Command, Option } from 'commander';
import { existsSync } from 'node:fs';
import packageJson from '../../package.json' with { type: 'json' };
import { portNumber, positiveInteger } from './positive-integer.ts';
import { positiveNumber } from './positive-number.ts';
import { delayOptimization } from '../runtime/delay-optimization.ts';
import { limitHeapGrowth } from '../runtime/limit-heap-growth.ts';
import { sharedAbortController } from '../runtime/shared-abort-controller.ts';
import { registerEvalCommand } from './register-eval-command.ts';

// Each command's module is imported when that command runs: DuckDB, the tokenizer, the PDF and
// Word readers and the model wire load only for the commands that need them, so `srag --help`
// starts in a fraction of the time (see bench/cli-start.ts).

const environmentHelp = `
Environment:
  OPENAI_API_KEY                key for OpenAI (or any endpoint that needs one)
  OPENAI_BASE_URL               OpenAI-compatible endpoint, e.g. http://localhost:11434/v1 (Ollama)
  AZURE_OPENAI_API_KEY          Azure OpenAI key, sent in the api-key header (when OPENAI_API_KEY is unset)
  AZURE_OPENAI_ENDPOINT         Azure OpenAI resource, https://RESOURCE.openai.azure.com (when OPENAI_BASE_URL is unset)
  SRAG_MODEL                    model for schema prediction, SQL and answers (default gpt-4o-mini)
  SRAG_EXTRACT_MODEL            cheaper model for record extraction (default SRAG_MODEL)
  SRAG_EMBEDDING_MODEL          embeddings for srag ask's hybrid path and srag eval's rag baseline, where the
                                endpoint serves /embeddings; BM25 where it does not (default text-embedding-3-small)
  SRAG_REASONING_EFFORT         reasoning_effort for models that take it: none, minimal, low, medium, high, xhigh
  SRAG_MAX_OUTPUT_TOKENS        an output limit per request (default none sent)
  SRAG_CONCURRENCY              model requests in flight (default 8)
  SRAG_MAX_INPUT_TOKENS         extraction input budget; longer documents are split (default 24000)
  SRAG_REQUEST_TIMEOUT_MS       per-request timeout (default 120000)
  SRAG_MAX_RETRIES              retries on 429, 5xx, timeouts and network errors (default 6)
  SRAG_MAX_REPLY_BYTES          the most read of one reply; a longer one fails its call (default 8388608)
  SRAG_MAX_PAGES                pages of one PDF srag reads; a longer one fails alone (default 5000)
  SRAG_READ_TIMEOUT_MS          time to read one PDF or Word document before it fails alone (default 60000)
  SRAG_WARN_CALLS_PER_DOCUMENT  warn before a document that needs more model calls (default 20)
  SRAG_CONFIRM_DOCUMENTS        srag ask --extend-schema asks before back-filling more documents (default 200)
  SRAG_PRICES                   JSON file of model prices in USD per million tokens, over the built-in list
                                prices: {"my-model": {"input": 0.2, "cached_input": 0.1, "output": 0.8}}
  SRAG_SERVE_TOKEN              bearer token srag serve requires of every API request (needed beyond loopback)
`;

/**
 * What to do without a model, at the end of `srag --help`. Your own documents need one; the
 * offline demo exists only in a clone of the repository (the installed package has no examples).
 */
function withoutModelHelp(demoAvailable: boolean): string {
  return `
Without OPENAI_API_KEY or OPENAI_BASE_URL, only replies already in the database's response cache
work; anything else fails with a line saying how to configure a model. Your own documents need a
model: the cheapest are a local one (Ollama: OPENAI_BASE_URL=http://localhost:11434/v1
SRAG_MODEL=llama3.1, no key, no cost) or a key with a budget (srag ingest --dry-run prices a run,
--max-cost 0.50 stops it before it spends more).${demoAvailable ? `
To see srag work offline on the sample corpus, run npm run demo in this repository (it starts the
test LLM stand-in, which answers only the sample corpora's questions).` : ''}`;
}

/** The demo of a clone of the repository; absent from the installed package. */
const demoScript = new URL('../../examples/demo.ts', import.meta.url);

export async function main(argv: string[]): Promise<number> {
  limitHeapGrowth();
  delayOptimization();
  // `srag … | head` closes the pipe early; that is not an error worth a stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  const abort = sharedAbortController();
  let interrupts = 0;
  process.on('SIGINT', () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(130);
    process.stderr.write('\ninterrupting: finishing writes; press Ctrl-C again to quit at once\n');
    abort.abort();
  });
  let exitStatus = 0;
  const database = () => new Option('--db <file>', 'DuckDB file').default('srag.duckdb');
  const program = new Command('srag')
    .description('Structured RAG: extract one typed record per document with an LLM, then answer aggregate questions with SQL')
    .version(packageJson.version, '-V, --version', 'print the srag version')
    .showHelpAfterError('(run srag --help for usage)')
    // Before the commands are added, which take it over: a usage error or --help ends main() with its status instead of the process.
    .exitOverride()
    .addHelpText('after', () => `
Typical session:
  srag schema "docs/*.html" --questions questions.txt -o schema.json
  srag ingest "docs/*.html" --schema schema.json
  srag ask "What is the average price of 4-star hotels in Paris?"

Several tables in one database: ingest each corpus with --table NAME, import reference data with
srag import cities.csv; then srag ask "…" chooses the tables each question needs and joins them.
${environmentHelp}${withoutModelHelp(existsSync(demoScript))}`);

  program.command('schema')
    .description('predict a record schema from sample documents and example questions, as the S-RAG paper does')
    .argument('<documents...>', 'files, directories or quoted globs')
    .requiredOption('--questions <file>', 'example questions: one per line, or JSONL with a "question" field')
    .option('--samples <n>', 'sample documents shown to the model', positiveInteger, 12)
    .option('--question-count <n>', 'questions shown to the model', positiveInteger, 10)
    .option('--iterations <n>', 'rounds: 1 from documents, then refinements with questions', positiveInteger, 4)
    .option('-o, --output <file>', 'write the schema here (default: stdout)')
    .addOption(database())
    .action(async (documents: string[], options) => { exitStatus = await (await import('./schema-command.ts')).schemaCommand(documents, options, abort.signal); });

  program.command('ingest')
    .description('extract one record per document into a table; unchanged documents cost nothing on reruns')
    .argument('[documents...]', 'files, directories or quoted globs (.pdf .docx .html .htm .md .txt .json)')
    .option('--schema <file>', 'JSON schema (from `srag schema` or written by hand); needed with documents')
    .addOption(database())
    .option('--table <name>', 'table name (default: the schema title in snake_case)')
    .option('--retry-failed', 'retry documents that failed in an earlier run')
    .option('--no-evidence', 'do not ask for quotes (values are then unchecked; short documents still share a call, each record checked by its values against the documents of the call)')
    .option('--follow-links', 'read symbolic links that lead out of the given paths (skipped by default)')
    .option('--prune', 'remove the records of the table\'s documents whose files are gone from their paths (a moved or renamed file among the given documents keeps its record without it; a gone one is only named)')
    .option('--synthesize', 'for documents that follow one template (one site\'s pages, one form): the model writes a JavaScript function per attribute from a few documents it extracted; a function agreeing with the model on every held-out document reads its attribute from the rest in a sandbox (QuickJS: no files, network, time and memory bounded), the model the others; far fewer tokens; later runs reuse the functions (srag_extractors)')
    .option('--batch-size <n>', 'the most documents per model call; by default short documents share a call (as many as the reply size and SRAG_MAX_INPUT_TOKENS allow, checked by id and quote, or by values with --no-evidence), 1 sends each alone', positiveInteger)
    .option('--dry-run', 'make no model call and save nothing: print the documents to extract, the model calls, prompt and completion tokens (replies at their planned longest), and the estimated cost at the model\'s prices (built in for OpenAI models; others from SRAG_PRICES)')
    .option('--max-cost <usd>', 'stop before the run would spend more than this many US dollars (estimated per group of documents before it is sent); what is done is saved, run again to go on', positiveNumber)
    .option('--json', 'print the summary as one JSON line: {table, documents, done, without_values, failed, unchanged, empty, from_cache, calls, retries, prompt_tokens, cached_prompt_tokens, completion_tokens, cost_usd, model, budget_reached, database, moved, gone, pruned, batch_api?: {waiting, submitted, open, collected_replies}}; with --dry-run {documents, calls, prompt_tokens, completion_tokens, cost_usd, model, table, left_alone, unreadable, moved, gone}')
    .option('--batch-api', 'send the extraction requests through the provider\'s Batch API: about half the price, answered within 24 hours; the command exits after submitting, and running it again (or srag ingest --resume-batch) collects the replies')
    .option('--resume-batch', 'collect the replies of the Batch API submissions of the table (--table when the database holds several) and finish their documents, without naming documents or schema again')
    .action(async (documents: string[], options) => { exitStatus = await (await import('./ingest-command.ts')).ingestCommand(documents, options, abort.signal); });

  program.command('ask')
    .description('answer a question: srag chooses the tables it needs (names, descriptions, values, joins measured on the data), the model writes SQL over them, DuckDB computes, the answer cites the tables and the SQL (or, on the hybrid path, the documents the SQL selected and it read) and says how many documents it rests on when values are missing or dropped')
    .argument('<questions...>', 'the question, quoted (several are answered in turn)')
    .addOption(database())
    .option('--table <name>', 'answer from this table only, instead of choosing (a table made with CREATE TABLE … AS SELECT * FROM srag_extract(…) is answered as srag_ask answers)')
    .option('--hybrid', 'answer from the text of the documents the SQL selects, for questions no column can answer (the S-RAG paper\'s hybrid mode); by default the model decides per question')
    .option('--no-hybrid', 'answer from the SQL result only')
    .option('--json', 'print {answer, sql, tables, joins, columns, rows, cut?, coverage, usage, path}, one line per question (cut: what a bounded result left out; coverage: per column read, rows, present, missing, dropped); a hybrid answer adds documents (read), selectedDocuments and documentProblems; --extend-schema adds added_attributes, schema_usage, extraction_usage, backfill_estimate, not_backfilled')
    .option('--extend-schema', 'first add the attributes the question needs that the table lacks: the model defines them, SRAG_EXTRACT_MODEL extracts only those from every document (again only what is still missing on a rerun)')
    .option('-y, --yes', 'with --extend-schema: do not ask before a back-fill of more than SRAG_CONFIRM_DOCUMENTS documents (default 200)')
    .option('--dry-run', 'with --extend-schema: print the attributes it would add and the back-fill\'s documents, extraction calls, tokens and estimated cost (--json: {question, table, added_attributes, documents, calls, prompt_tokens, completion_tokens, cost_usd, model, schema_usage}); no extraction call, nothing added (the model is asked only which attributes the question needs)')
    .action(async (questions: string[], options) => { exitStatus = await (await import('./ask-command.ts')).askCommand(questions, options, abort.signal); });

  program.command('import')
    .description('import your own CSV or Parquet file as a table (read by DuckDB: read_csv, read_parquet), so questions can join it with extracted records; values are taken as they are, without evidence')
    .argument('<file>', 'a .csv, .tsv or .parquet file with a header row; a .csv may separate by semicolons (decimal commas then read as numbers), tabs or pipes, as its header line shows')
    .addOption(database())
    .option('--table <name>', 'table name (default: the file name in snake_case)')
    .option('--replace', 'replace a table an earlier srag import made')
    .option('--description <text>', 'what the table holds, in words (helps srag ask choose it)')
    .action(async (file: string, options) => { exitStatus = await (await import('./import-command.ts')).importCommand(file, options); });

  program.command('sql')
    .description('run your own SQL on the database, as the DuckDB CLI does: SQL given as an argument or with -c runs (statements or a dot command), statements piped on stdin run as a script, a terminal gets a shell (.tables, .schema, .help, .quit); every result is printed, DDL prints nothing')
    .argument('[sql]', 'SQL statements or one dot command, as -c takes them: srag sql "SELECT * FROM srag_usage()"')
    .option('-c, --command <sql>', 'SQL statements (each result is printed) or one dot command, e.g. ".tables"')
    .addOption(database())
    .option('--json', 'print one {columns, rows} line per result')
    .action(async (sql: string | undefined, options) => { exitStatus = await (await import('./sql-command.ts')).sqlCommand({ ...options, sql }, abort.signal); });

  program.command('run')
    .description('run a SQL file statement by statement, with the srag functions (a dbt-style batch job)')
    .argument('<file>', 'the SQL file')
    .addOption(database())
    .option('--json', 'print one JSON line per statement: {statement, line, columns, rows}')
    .action(async (file: string, options) => { exitStatus = await (await import('./run-command.ts')).runCommand(file, options, abort.signal); });

  program.command('stats')
    .description('show a table\'s columns, statistics and ingestion log')
    .addOption(database())
    .option('--table <name>', 'table (needed when the database holds several)')
    .option('--json', 'print JSON')
    .action(async (options) => { exitStatus = await (await import('./stats-command.ts')).statsCommand(options); });

  program.command('why')
    .description('show where a value came from: the quote, the raw model value, and why it was kept or dropped')
    .argument('<document>', 'document path as ingested (a unique part of it is enough)')
    .argument('<attribute>', 'attribute (column) name')
    .addOption(database())
    .option('--table <name>', 'table (needed when the database holds several)')
    .action(async (document: string, attribute: string, options) => { exitStatus = await (await import('./why-command.ts')).whyCommand(document, attribute, options); });

  program.command('serve')
    .description('serve the HTTP API (/query, /ingest, /schema, /stats, /why; /openapi.json describes it) and a web page to ask questions and browse the evidence behind every value')
    .addOption(database())
    .option('--port <n>', 'port (1–65535)', portNumber, 8080)
    .option('--host <address>', 'address to listen on; any but loopback needs SRAG_SERVE_TOKEN', '127.0.0.1')
    .option('--allow-path <dir>', 'a folder ingest requests may read documents and schema files from (repeatable; default: the working directory alone)', (folder: string, folders: string[] = []) => [...folders, folder])
    .addHelpText('after', `
With SRAG_SERVE_TOKEN set (16 characters or more: openssl rand -hex 32), every API request needs
"Authorization: Bearer <token>" (the page asks for it once). Ingest paths and schema files are read
on the server, relative to its working directory, and only inside the folder it was started in (or
the --allow-path folders): a path that leaves them, by .. or a symbolic link, is refused, and a
glob's matches outside them are left out. An ingest job the server did not finish resumes when it
starts again.`)
    .action(async (options) => { exitStatus = await (await import('./serve-command.ts')).serveCommand(options, abort.signal); });

  program.command('mcp')
    .description('serve srag to an AI assistant (Claude Desktop, VS Code, any MCP client) as a Model Context Protocol server over stdio: tools to ask a question, show where a value came from (why), describe the tables, show a table\'s statistics, and extend the schema (a dry run first, then the run on confirmation)')
    .addOption(database())
    .addHelpText('after', `
The client starts it: see "For AI assistants: srag mcp" in the README for its configuration. stdout
carries only the protocol; notices go to stderr. The database is open only while a tool call runs.`)
    .action(async (options) => { exitStatus = await (await import('../mcp/serve-mcp.ts')).serveMcp({ database: options.db, version: packageJson.version }, abort.signal); });

  program.command('text')
    .description('print a document as the model reads it (PDF, Word, HTML reduced to text); --parts shows the parts ingest sends')
    .argument('<document>', 'a document file (.pdf .docx .html .htm .md .txt .json)')
    .option('--parts', 'print each part as sent to the model, with its token count')
    .option('--schema <file>', 'the schema the document is extracted with (default: the table in --db)')
    .addOption(database())
    .option('--table <name>', 'table whose schema to use (needed when the database holds several)')
    .option('--no-evidence', 'count the parts as ingest --no-evidence sends them')
    .action(async (document: string, options) => { exitStatus = await (await import('./text-command.ts')).textCommand(document, options); });

  program.command('drop')
    .description('remove a record table and its catalog rows (schema, statistics, ingestion log, evidence) in one transaction')
    .argument('<table>', 'the table to remove')
    .addOption(database())
    .option('-y, --yes', 'do not ask first (needed when stdin is not a terminal)')
    .action(async (table: string, options) => { exitStatus = await (await import('./drop-command.ts')).dropCommand(table, options, abort.signal); });

  registerEvalCommand(program, abort.signal, (status) => { exitStatus = status; });
  // A command's usage error points at that command's help, which lists its arguments and options.
  for (const command of program.commands) command.showHelpAfterError(`(run srag ${command.name()} --help for usage)`);

  try {
    await program.parseAsync(argv);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (typeof code === 'string' && code.startsWith('commander.')) {
      return code === 'commander.helpDisplayed' || code === 'commander.version' || code === 'commander.help' ? 0 : 2;
    }
    const { renderError } = await import('./render-error.ts');
    const { line, exitStatus: status } = renderError(error, { database: databaseArgument(argv) });
    process.stderr.write(`${line}\n`);
    return status;
  }
  return exitStatus;
}

/** The `--db` the command line names (the default when none), for commands an error's fix prints. */
function databaseArgument(argv: readonly string[]): string {
  for (const [index, argument] of argv.entries()) {
    if (argument === '--db' && argv[index + 1] !== undefined) return argv[index + 1]!;
    if (argument.startsWith('--db=')) return argument.slice('--db='.length);
  }
  return 'srag.duckdb';
}
