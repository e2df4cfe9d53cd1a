/**
 * Writes a corpus of generated hotel pages for the benchmark, in the gold-corpus layout the LLM
 * stand-in reads: `docs/*.md`, `schema.json` (the hotels sample schema) and `gold/records.jsonl`
 * with each value's raw form and verbatim quote. Seeded: the same count gives the same files.
 */
import { closeSync, copyFileSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '../examples/seeded-random.ts';

const hotelsSchemaFile = fileURLToPath(new URL('../examples/hotels/schema.json', import.meta.url));

interface GoldCell {
  value: string | number | boolean | null;
  raw: string | null;
  quote: string | null;
}

export interface GeneratedDocument {
  path: string;
  /** The page's heading: unique, and no name contains another (numbers are zero-padded). */
  name: string;
  record: { document: string; values: Record<string, GoldCell> };
}

const adjectives = ['Amber', 'Azure', 'Cedar', 'Cobalt', 'Golden', 'Ivory', 'Juniper', 'Linden', 'Marble', 'Opal', 'Silver', 'Velvet'];
const nouns = ['Arch', 'Court', 'Crown', 'Garden', 'Gate', 'Harbour', 'Lantern', 'Palace', 'Quarter', 'Square', 'Tower', 'Willow'];
const places = [
  ['Paris', 'France'], ['Rome', 'Italy'], ['Barcelona', 'Spain'], ['Prague', 'Czech Republic'], ['Amsterdam', 'Netherlands'],
  ['Lisbon', 'Portugal'], ['Vienna', 'Austria'], ['Madrid', 'Spain'],
] as const;
const managers = ['Anna Weber', 'Camille Laurent', 'Marco Rossi', 'Lucia García', 'Jan Novák', 'Sofia Costa', 'Eva Bauer', 'Pieter de Vries'];
const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const filler = [
  'Many rooms look out over the rooftops of the old town.',
  'Quiet rooms facing the courtyard are available on request.',
  'Staff at the front desk speak several languages.',
  'Breakfast is served in the garden when the weather allows.',
  'The neighbourhood is known for its small restaurants and markets.',
  'Bicycles can be borrowed at the reception free of charge.',
];


export function generateHotelCorpus(directory: string, count: number, seed = 20_251_121): GeneratedDocument[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  mkdirSync(path.join(directory, 'docs'), { recursive: true });
  mkdirSync(path.join(directory, 'gold'), { recursive: true });
  copyFileSync(hotelsSchemaFile, path.join(directory, 'schema.json'));
  const width = String(count).length;
  const documents: GeneratedDocument[] = [];
  for (let index = 1; index <= count; index += 1) {
    const name = `${pick(adjectives)} ${pick(nouns)} Hotel ${String(index).padStart(width, '0')}`;
    const [city, country] = pick(places);
    const address = `${between(1, 250)} ${pick(nouns)} Street, ${city}, ${country}`;
    const stars = between(2, 5);
    const price = between(60, 250) * (stars - 1);
    const rating = between(60, 98) / 10;
    const reviews = between(40, 9000);
    const distance = between(1, 60) * 100;
    const [pool, shuttle, pets] = [random() < 0.4, random() < 0.3, random() < 0.5];
    const opened = { year: between(1900, 2020), month: between(1, 12), day: between(1, 28) };
    const rooms = between(10, 1200);
    const manager = pick(managers);
    const fact = (label: string, raw: string) => ({ line: `- ${label}: ${raw}`, quote: `${label}: ${raw}` });
    const cell = (value: GoldCell['value'], raw: string, quote: string): GoldCell => ({ value, raw, quote });
    const yesNo = (value: boolean) => (value ? 'Yes' : 'No');
    const facts = {
      star_rating: fact('Star rating', String(stars)),
      price_per_night: fact('Price per night', `$${price.toLocaleString('en-US')}`),
      guest_rating: fact('Guest rating', `${rating.toFixed(1)}/10`),
      review_count: fact('Reviews', reviews.toLocaleString('en-US')),
      distance_to_center: fact('Distance to center', distance >= 1000 ? `${distance / 1000} km` : `${distance} m`),
      has_pool: fact('Swimming pool', yesNo(pool)),
      has_airport_shuttle: fact('Airport shuttle', yesNo(shuttle)),
      pets_allowed: fact('Pets allowed', yesNo(pets)),
      opened_date: fact('Opened', `${opened.day} ${months[opened.month - 1]} ${opened.year}`),
      total_rooms: fact('Rooms', rooms.toLocaleString('en-US')),
      manager_name: fact('General manager', manager),
    };
    const rawOf = (key: keyof typeof facts) => facts[key].quote.slice(facts[key].quote.indexOf(': ') + 2);
    const isoDate = `${opened.year}-${String(opened.month).padStart(2, '0')}-${String(opened.day).padStart(2, '0')}`;
    const values: Record<string, GoldCell> = {
      hotel_name: cell(name, name, name),
      city: cell(city, city, address),
      country: cell(country, country, address),
      star_rating: cell(stars, rawOf('star_rating'), facts.star_rating.quote),
      price_per_night: cell(price, rawOf('price_per_night'), facts.price_per_night.quote),
      guest_rating: cell(rating, rawOf('guest_rating'), facts.guest_rating.quote),
      review_count: cell(reviews, rawOf('review_count'), facts.review_count.quote),
      distance_to_center: cell(distance, rawOf('distance_to_center'), facts.distance_to_center.quote),
      has_pool: cell(pool, rawOf('has_pool'), facts.has_pool.quote),
      has_airport_shuttle: cell(shuttle, rawOf('has_airport_shuttle'), facts.has_airport_shuttle.quote),
      pets_allowed: cell(pets, rawOf('pets_allowed'), facts.pets_allowed.quote),
      opened_date: cell(isoDate, rawOf('opened_date'), facts.opened_date.quote),
      total_rooms: cell(rooms, rawOf('total_rooms'), facts.total_rooms.quote),
      manager_name: cell(manager, manager, facts.manager_name.quote),
    };
    const text = [
      `# ${name}`, '', address, '', '## About this property', '',
      `Welcome to ${name}, a place to stay in ${city}. ${pick(filler)} ${pick(filler)}`, '',
      `${pick(filler)} ${pick(filler)}`, '', '## Property facts', '',
      ...Object.values(facts).map((entry) => entry.line), '',
    ].join('\n');
    const document = `docs/hotel-${String(index).padStart(width, '0')}.md`;
    writeFileSync(path.join(directory, document), text);
    documents.push({ path: path.join(directory, document), name, record: { document, values } });
  }
  // Line by line: a million records are more text than one string can hold.
  const gold = openSync(path.join(directory, 'gold', 'records.jsonl'), 'w');
  try {
    for (let start = 0; start < documents.length; start += 1000) {
      writeSync(gold, documents.slice(start, start + 1000).map((document) => `${JSON.stringify(document.record)}\n`).join(''));
    }
  } finally {
    closeSync(gold);
  }
  return documents;
}
