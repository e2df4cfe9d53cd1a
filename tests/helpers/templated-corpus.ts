/**
 * A corpus whose documents all follow one template — a used-car dealer's listing pages — in the
 * gold-corpus layout the LLM stand-in reads: `docs/*.md`, `schema.json`, `gold/records.jsonl`
 * (each value with its raw form and verbatim quote) and `gold/extractors.json` (per attribute, the
 * template's regular expression and, for the contact name, a plausible wrong one). For the
 * synthesized-extractor tests and `npm run bench:synthesize`. Seeded: the same arguments give the
 * same files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { seededRandom } from '../../examples/seeded-random.ts';

export interface TemplatedDocument {
  path: string;
  text: string;
}

export interface TemplatedCorpusOptions {
  seed?: number;
  /** Documents (0-based) whose contact has a three-word name, which the `slip` pattern reads as two words. */
  threeWordContacts?: readonly number[];
  /** Documents (0-based) that get an extra line of text, e.g. a stand-in marker. */
  extraLines?: Readonly<Record<number, string>>;
}

const makes = [
  ['Volvo', ['V60', 'XC40', 'S90']], ['Toyota', ['Corolla', 'Yaris', 'RAV4']], ['Skoda', ['Octavia', 'Fabia', 'Superb']],
  ['Peugeot', ['208', '308', '3008']], ['Renault', ['Clio', 'Megane', 'Kadjar']], ['Ford', ['Focus', 'Fiesta', 'Kuga']],
] as const;
const fuels = ['Petrol', 'Diesel', 'Hybrid', 'Electric'];
const cities = ['Gothenburg', 'Lyon', 'Antwerp', 'Bologna', 'Graz', 'Utrecht'];
const dealers = ['Nordic Motors', 'Autohaus Adler', 'Garage Central', 'Route 9 Cars'];
const twoWordNames = ['Anna Weber', 'Camille Laurent', 'Marco Rossi', 'Eva Bauer', 'Jan Novak', 'Sofia Costa'];
const threeWordNames = ['Pieter de Vries', 'Maria da Silva', 'Ludwig van Berg'];
const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const prose = [
  'The car has been kept in a heated garage and comes with two sets of keys.',
  'Winter tyres on steel rims are included in the price.',
  'A test drive can be booked any day of the week.',
  'The interior is in very good condition for its age.',
  'Financing is available for buyers with a valid residence permit.',
];

export const carListingSchema = {
  title: 'Car listings',
  type: 'object',
  properties: {
    make: { type: 'string', description: 'The manufacturer of the car, as the listing names it (Volvo, Toyota).', examples: ['Volvo'] },
    model: { type: 'string', description: 'The model name without the make (V60, Corolla).', examples: ['V60'] },
    year: { type: 'integer', description: 'The model year of the car.', examples: [2016] },
    mileage_km: { type: 'number', description: 'The distance the car has driven, in kilometres.', examples: [84300], unit: 'km' },
    price_eur: { type: 'number', description: 'The asking price in euros.', examples: [18900], unit: 'EUR' },
    fuel_type: { type: 'string', description: 'The fuel the car runs on: Petrol, Diesel, Hybrid or Electric.', examples: ['Diesel'] },
    previous_owners: { type: 'integer', description: 'How many owners the car had before this sale.', examples: [2] },
    full_service_history: { type: 'boolean', description: 'Whether the car comes with a full service history.', examples: [true] },
    listed_date: { type: 'string', format: 'date', description: 'The date the listing was posted.', examples: ['2024-03-03'] },
    dealer_city: { type: 'string', description: 'The city of the dealer selling the car.', examples: ['Gothenburg'] },
    contact_name: { type: 'string', description: 'The full name of the salesperson to contact.', examples: ['Anna Weber'] },
  },
} as const;

/** Per attribute, how the template writes it: the whole match is the quote, the first group the value. */
const templates: Record<string, { pattern: string; flags: string; slip?: string }> = {
  make: { pattern: '^- Make: (.+)$', flags: 'm' },
  model: { pattern: '^- Model: (.+)$', flags: 'm' },
  year: { pattern: '^- Year: (\\d{4})$', flags: 'm' },
  mileage_km: { pattern: '^- Mileage: ([\\d,]+ km)$', flags: 'm' },
  price_eur: { pattern: '^- Price: (€[\\d,]+)$', flags: 'm' },
  fuel_type: { pattern: '^- Fuel: (\\w+)$', flags: 'm' },
  previous_owners: { pattern: '^- Previous owners: (\\d+)$', flags: 'm' },
  full_service_history: { pattern: '^- Full service history: (Yes|No)$', flags: 'm' },
  listed_date: { pattern: '^Listed on (\\d{1,2} \\w+ \\d{4})$', flags: 'm' },
  dealer_city: { pattern: '^Sold by [^,\\n]+, (.+)$', flags: 'm' },
  // A model that saw only two-word names may write a two-word pattern: "Pieter de Vries" becomes "Pieter de".
  contact_name: { pattern: '^Contact: (.+)$', flags: 'm', slip: 'Contact: (\\w+ \\w+)' },
};

export function generateTemplatedCorpus(directory: string, count: number, options: TemplatedCorpusOptions = {}): TemplatedDocument[] {
  const random = seededRandom(options.seed ?? 20_251_123);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  mkdirSync(path.join(directory, 'docs'), { recursive: true });
  mkdirSync(path.join(directory, 'gold'), { recursive: true });
  writeFileSync(path.join(directory, 'schema.json'), `${JSON.stringify(carListingSchema, null, 2)}\n`);
  writeFileSync(path.join(directory, 'gold', 'extractors.json'), `${JSON.stringify(templates, null, 2)}\n`);
  const width = Math.max(3, String(count).length);
  const documents: TemplatedDocument[] = [];
  const records: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const number = String(index + 1).padStart(width, '0');
    const [make, models] = pick(makes);
    const model = pick(models);
    const year = between(2008, 2023);
    const mileage = between(5, 250) * 1000 + between(0, 9) * 100;
    const price = between(30, 450) * 100;
    const fuel = pick(fuels);
    const owners = between(0, 4);
    const serviced = random() < 0.6;
    const listed = { year: between(2023, 2025), month: between(1, 12), day: between(1, 28) };
    const city = pick(cities);
    const dealer = pick(dealers);
    const contact = options.threeWordContacts?.includes(index) ? pick(threeWordNames) : pick(twoWordNames);
    const lines = {
      make: `- Make: ${make}`,
      model: `- Model: ${model}`,
      year: `- Year: ${year}`,
      mileage_km: `- Mileage: ${mileage.toLocaleString('en-US')} km`,
      price_eur: `- Price: €${price.toLocaleString('en-US')}`,
      fuel_type: `- Fuel: ${fuel}`,
      previous_owners: `- Previous owners: ${owners}`,
      full_service_history: `- Full service history: ${serviced ? 'Yes' : 'No'}`,
      listed_date: `Listed on ${listed.day} ${months[listed.month - 1]} ${listed.year}`,
      dealer_city: `Sold by ${dealer}, ${city}`,
      contact_name: `Contact: ${contact}`,
    };
    const iso = `${listed.year}-${String(listed.month).padStart(2, '0')}-${String(listed.day).padStart(2, '0')}`;
    const values: Record<string, string | number | boolean> = {
      make, model, year, mileage_km: mileage, price_eur: price, fuel_type: fuel, previous_owners: owners,
      full_service_history: serviced, listed_date: iso, dealer_city: city, contact_name: contact,
    };
    const gold = Object.fromEntries(Object.entries(lines).map(([attribute, line]) => {
      const match = new RegExp(templates[attribute]!.pattern, templates[attribute]!.flags).exec(line)!;
      return [attribute, { value: values[attribute], raw: match[1], quote: match[0] }];
    }));
    const text = [
      `# Listing ${number}: ${year} ${make} ${model}`, '',
      lines.dealer_city, lines.listed_date, '',
      '## Vehicle details', '',
      lines.make, lines.model, lines.year, lines.mileage_km, lines.price_eur, lines.fuel_type, lines.previous_owners, lines.full_service_history, '',
      `${pick(prose)} ${pick(prose)}`, '',
      ...(options.extraLines?.[index] ? [options.extraLines[index], ''] : []),
      lines.contact_name, '',
    ].join('\n');
    const relative = `docs/listing-${number}.md`;
    writeFileSync(path.join(directory, relative), text);
    documents.push({ path: path.join(directory, relative), text });
    records.push(JSON.stringify({ document: relative, values: gold }));
  }
  writeFileSync(path.join(directory, 'gold', 'records.jsonl'), `${records.join('\n')}\n`);
  return documents;
}
