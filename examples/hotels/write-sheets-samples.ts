/**
 * Writes the hotels sample corpus in the shapes the Sheets add-on takes them, into sheets-addon/samples/,
 * so that trying the add-on needs no pasting of 50 documents by hand:
 *   hotels-documents.csv   the Documents sheet: a header (source, text), then one row per page of
 *                          examples/hotels/docs, its file name and its text (File › Import in Sheets)
 *   hotels-questions.txt   the sample questions, one per line, for the sidebar's Predict schema box
 * Run again after the corpus changes: npx tsx examples/hotels/write-sheets-samples.ts
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const here = `${root}sheets-addon/samples/`;

/** A CSV field as RFC 4180 writes it: in double quotes, a quote doubled; line breaks stay inside the quotes. */
const field = (text: string) => `"${text.replace(/"/g, '""')}"`;

const documents = readdirSync(`${root}examples/hotels/docs`).sort();
const rows = [['source', 'text'], ...documents.map((name) => [name, readFileSync(`${root}examples/hotels/docs/${name}`, 'utf8')])];
writeFileSync(`${here}hotels-documents.csv`, rows.map((row) => row.map(field).join(',')).join('\r\n') + '\r\n');

const questions = readFileSync(`${root}examples/hotels/questions.jsonl`, 'utf8').split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { question: string }).question);
writeFileSync(`${here}hotels-questions.txt`, `${questions.join('\n')}\n`);
