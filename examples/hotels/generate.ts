/**
 * Seeded generator of the synthetic HOTELS corpus (seed paper §4.1 and Appendix C): random hotel
 * records are verbalized into booking-style pages (HTML, Markdown, plain text), with some properties
 * in a facts list and others inside ordinary sentences, and some left out. It also writes the gold
 * schema, the gold records (normalized value, raw surface form, verbatim quote) and the gold questions,
 * whose answers come from running their SQL in DuckDB over the gold records.
 *
 * Deterministic: the same seed reproduces every file byte for byte. Run `npx tsx examples/hotels/generate.ts`.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import {
  computeQuestions, createGoldTable, toJsonLines,
  type GoldCell, type GoldRecord, type QuestionDefinition,
} from './gold-format.ts';
import { hotelQuestions } from './questions.ts';
import { SeededRandom } from '../seeded-random.ts';

export const corpusSeed = 20_251_108;
const missingProbability = 0.12;

// ---------------------------------------------------------------------------------------------
// The gold schema

export const hotelSchema = {
  title: 'Hotels',
  type: 'object',
  properties: {
    hotel_name: {
      type: 'string',
      description: 'The name of the hotel as the page title gives it. Keep the original spelling and capitalization, without the city or a booking-site suffix.',
      examples: ['Amber Court Hotel', 'Willow Lantern Suites'],
    },
    city: {
      type: 'string',
      description: 'The city the hotel is in. Use the English name of the city, capitalized (Lisbon, not Lisboa), without district, postcode or country.',
      examples: ['Paris', 'Lisbon'],
    },
    country: {
      type: 'string',
      description: 'The country the hotel is in. Use the common English name of the country, capitalized (Czech Republic, Netherlands).',
      examples: ['France', 'Czech Republic'],
    },
    star_rating: {
      type: 'integer',
      description: 'The official star classification of the hotel. An integer from 1 to 5; "a 4-star hotel" is 4. Not the guest rating.',
      examples: [3, 4],
    },
    price_per_night: {
      type: 'number',
      description: 'The price of one night in a standard room, in US dollars. Give the plain number: "$1,250", "USD 1,250.00" and "1,250 dollars" are all 1250.',
      examples: [189, 1250],
      unit: 'USD',
    },
    guest_rating: {
      type: 'number',
      description: 'The average score guests give the hotel, on a scale of 0 to 10. "8.7/10" and "8.7 out of 10" are 8.7. Not the star rating.',
      examples: [8.7, 7.9],
      unit: 'points out of 10',
    },
    review_count: {
      type: 'integer',
      description: 'The number of guest reviews the rating is based on. A whole count: "1,234" is 1234 and "1.2k" is 1200.',
      examples: [1234, 1200],
    },
    distance_to_center: {
      type: 'number',
      description: 'The distance from the hotel to the city center, in metres. Convert kilometres: "1.2 km" is 1200 and "850 m" is 850.',
      examples: [850, 1200],
      unit: 'metres',
    },
    has_pool: {
      type: 'boolean',
      description: 'Whether the hotel has a swimming pool guests can use. True when the page says it has one, false when it says it has none; null when the page does not say.',
      examples: [true, false],
    },
    has_airport_shuttle: {
      type: 'boolean',
      description: 'Whether the hotel offers an airport shuttle. True when the page says it does, false when it says it does not; null when the page does not say.',
      examples: [true, false],
    },
    pets_allowed: {
      type: 'boolean',
      description: 'Whether guests may bring pets. True when pets are allowed or welcome, false when they are not; null when the page does not say.',
      examples: [true, false],
    },
    opened_date: {
      type: 'string',
      format: 'date',
      description: 'The date the hotel first opened to guests. Normal form YYYY-MM-DD: "5 March 2011" and "March 5, 2011" are 2011-03-05.',
      examples: ['2011-03-05', '1987-11-20'],
    },
    total_rooms: {
      type: 'integer',
      description: 'The number of guest rooms and suites in the hotel. A whole count: "1,050 rooms" is 1050.',
      examples: [120, 1050],
    },
    manager_name: {
      type: 'string',
      description: 'The full name of the general manager of the hotel, first name then last name. Null when the page names no manager.',
      examples: ['Anna Weber'],
    },
  },
  required: [
    'hotel_name', 'city', 'country', 'star_rating', 'price_per_night', 'guest_rating', 'review_count',
    'distance_to_center', 'has_pool', 'has_airport_shuttle', 'pets_allowed', 'opened_date', 'total_rooms', 'manager_name',
  ],
} as const;

type PropertyName = (typeof hotelSchema.required)[number];

// ---------------------------------------------------------------------------------------------
// Random hotels

interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

interface Hotel {
  name: string;
  slug: string;
  city: string;
  country: string;
  street: string;
  starRating: number;
  pricePerNight: number;
  guestRating: number;
  reviewCount: number;
  /** In metres; `distanceInKilometres` says how the page writes it. */
  distanceToCenter: number;
  distanceInKilometres: boolean;
  hasPool: boolean;
  hasAirportShuttle: boolean;
  petsAllowed: boolean;
  openedDate: CalendarDate;
  totalRooms: number;
  managerName: string;
}

/** How many hotels each city gets (50 in all); fixed so that filters by city have enough rows. */
const citySlots: ReadonlyArray<{ city: string; country: string; hotels: number; priceFactor: number }> = [
  { city: 'Paris', country: 'France', hotels: 10, priceFactor: 1.3 },
  { city: 'Rome', country: 'Italy', hotels: 8, priceFactor: 1.1 },
  { city: 'Barcelona', country: 'Spain', hotels: 7, priceFactor: 1.05 },
  { city: 'Prague', country: 'Czech Republic', hotels: 6, priceFactor: 0.75 },
  { city: 'Lisbon', country: 'Portugal', hotels: 5, priceFactor: 0.85 },
  { city: 'Vienna', country: 'Austria', hotels: 5, priceFactor: 1.0 },
  { city: 'Amsterdam', country: 'Netherlands', hotels: 5, priceFactor: 1.2 },
  { city: 'Madrid', country: 'Spain', hotels: 4, priceFactor: 0.95 },
];

const nameAdjectives = [
  'Amber', 'Azure', 'Cedar', 'Copper', 'Crystal', 'Golden', 'Ivory', 'Juniper', 'Linden', 'Maple',
  'Marble', 'Meridian', 'Olive', 'Opal', 'Saffron', 'Silver', 'Velvet', 'Willow', 'Cobalt', 'Scarlet',
];
const nameNouns = [
  'Arch', 'Court', 'Crown', 'Garden', 'Gate', 'Harbour', 'House', 'Lantern', 'Lodge', 'Palace',
  'Quarter', 'Square', 'Tower', 'Terrace', 'Residence',
];
const nameSuffixes = ['Hotel', 'Suites', 'Inn', 'Hotel', 'Boutique Hotel'];
const managerFirstNames = [
  'Anna', 'Marco', 'Sofia', 'Lukas', 'Camille', 'Tomas', 'Ines', 'Pieter', 'Elena', 'Jakub',
  'Clara', 'Mateo', 'Hanna', 'Julien', 'Beatriz', 'Stefan', 'Lucia', 'Daan', 'Marta', 'Felix',
];
const managerLastNames = [
  'Weber', 'Rossi', 'Moreau', 'Novak', 'Silva', 'de Vries', 'Garcia', 'Huber', 'Bianchi', 'Dubois',
  'Svoboda', 'Costa', 'Bakker', 'Lopez', 'Gruber', 'Ferrari', 'Laurent', 'Dvorak', 'Pereira', 'Janssen',
];
const streetNames = [
  'Market Street', 'River Road', 'Chapel Lane', 'Station Square', 'Garden Avenue', 'Old Town Street',
  'Bridge Road', 'Harbour Walk', 'Castle Hill', 'Linden Avenue', 'Park Lane', 'Cathedral Street',
];

const starWeights: ReadonlyArray<[stars: number, weight: number]> = [[2, 0.15], [3, 0.35], [4, 0.35], [5, 0.15]];
const basePriceByStars: Record<number, number> = { 2: 70, 3: 120, 4: 210, 5: 520 };
const roomRangeByStars: Record<number, [number, number]> = { 2: [12, 60], 3: [30, 180], 4: [60, 400], 5: [90, 1200] };
const ratingRangeByStars: Record<number, [number, number]> = { 2: [60, 80], 3: [68, 88], 4: [74, 94], 5: [80, 98] };
const poolProbabilityByStars: Record<number, number> = { 2: 0.1, 3: 0.3, 4: 0.5, 5: 0.8 };

function pickStarRating(random: SeededRandom): number {
  let threshold = random.next();
  for (const [stars, weight] of starWeights) {
    if (threshold < weight) return stars;
    threshold -= weight;
  }
  return 3;
}

/** Review counts are unique across the corpus, so that "the hotel with the most reviews" is one hotel. */
function pickReviewCount(random: SeededRandom, taken: Set<number>): number {
  for (;;) {
    // About a third are round hundreds, which pages may write with a "k" suffix ("1.2k").
    const count = random.chance(0.35) ? random.integer(10, 60) * 100 : random.integer(40, 5200);
    if (!taken.has(count)) {
      taken.add(count);
      return count;
    }
  }
}

/** Opening dates are unique, so that "the earliest opened hotel" is one hotel. */
function pickOpenedDate(random: SeededRandom, taken: Set<string>): CalendarDate {
  for (;;) {
    const date = { year: random.integer(1948, 2022), month: random.integer(1, 12), day: random.integer(1, 28) };
    const key = isoDate(date);
    if (!taken.has(key)) {
      taken.add(key);
      return date;
    }
  }
}

function pickHotelName(random: SeededRandom, takenPairs: Set<string>): string {
  for (;;) {
    // Each adjective–noun pair is used once, so no hotel name is contained in another.
    const pair = `${random.pick(nameAdjectives)} ${random.pick(nameNouns)}`;
    if (!takenPairs.has(pair)) {
      takenPairs.add(pair);
      return `${pair} ${random.pick(nameSuffixes)}`;
    }
  }
}

function generateHotels(random: SeededRandom): Hotel[] {
  const cityOrder = random.shuffle(citySlots.flatMap((slot) => Array.from({ length: slot.hotels }, () => slot)));
  const takenNames = new Set<string>();
  const takenReviewCounts = new Set<number>();
  const takenDates = new Set<string>();
  return cityOrder.map((slot) => {
    const name = pickHotelName(random, takenNames);
    const starRating = pickStarRating(random);
    const [fewestRooms, mostRooms] = roomRangeByStars[starRating]!;
    const [lowestRating, highestRating] = ratingRangeByStars[starRating]!;
    const distanceInKilometres = random.chance(0.5);
    return {
      name,
      slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
      city: slot.city,
      country: slot.country,
      street: `${random.integer(1, 199)} ${random.pick(streetNames)}`,
      starRating,
      pricePerNight: Math.round(basePriceByStars[starRating]! * (0.75 + random.next()) * slot.priceFactor),
      guestRating: random.integer(lowestRating, highestRating) / 10,
      reviewCount: pickReviewCount(random, takenReviewCounts),
      distanceToCenter: distanceInKilometres ? random.integer(10, 65) * 100 : random.integer(2, 19) * 50,
      distanceInKilometres,
      hasPool: random.chance(poolProbabilityByStars[starRating]!),
      hasAirportShuttle: random.chance(0.4),
      petsAllowed: random.chance(0.5),
      openedDate: pickOpenedDate(random, takenDates),
      totalRooms: random.integer(fewestRooms, mostRooms),
      managerName: `${random.pick(managerFirstNames)} ${random.pick(managerLastNames)}`,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Surface forms

const monthNames = [
  'January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December',
];

function isoDate(date: CalendarDate): string {
  return `${date.year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}

/** "5 March 2011" */
function dayMonthYear(date: CalendarDate): string {
  return `${date.day} ${monthNames[date.month - 1]} ${date.year}`;
}

/** "March 5, 2011" */
function monthDayYear(date: CalendarDate): string {
  return `${monthNames[date.month - 1]} ${date.day}, ${date.year}`;
}

/** "1,234" — written by hand so the output does not depend on the runtime's locale data. */
function withThousandsSeparators(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** "1.2k" for round hundreds of 1,000 or more; undefined when the count is not round. */
function kiloForm(value: number): string | undefined {
  return value >= 1000 && value % 100 === 0 ? `${value / 1000}k` : undefined;
}

/** "1.2 km" or "850 m", as the page writes the distance. */
function distanceText(hotel: Hotel): string {
  return hotel.distanceInKilometres ? `${hotel.distanceToCenter / 1000} km` : `${hotel.distanceToCenter} m`;
}

// ---------------------------------------------------------------------------------------------
// Statements: what a page says about each property, and the gold cells it supports

/** A piece of page text: an item of the facts list, or a sentence of the description. */
interface Statement {
  placement: 'list' | 'prose';
  text: string;
}

interface RenderedFacts {
  cells: Partial<Record<PropertyName, GoldCell>>;
  statements: Statement[];
}

const absentCell: GoldCell = { value: null, raw: null, quote: null };

function statedCell(value: GoldCell['value'], raw: string, quote: string): GoldCell {
  return { value, raw, quote };
}

/**
 * One optional property: missing with `missingProbability`; a missing value in the facts list is
 * sometimes written "N/A" (raw "N/A", value and quote null), otherwise it is left out.
 */
interface OptionalProperty {
  name: PropertyName;
  listLabel: string;
  /** The list form and prose form of a stated value, each with the raw text it contains. */
  listForm: (hotel: Hotel, random: SeededRandom) => { value: GoldCell['value']; raw: string; text: string };
  proseForm: (hotel: Hotel, random: SeededRandom) => { value: GoldCell['value']; raw: string; text: string };
}

function booleanProperty(
  name: PropertyName,
  listLabel: string,
  read: (hotel: Hotel) => boolean,
  proseYes: string,
  proseNo: string,
): OptionalProperty {
  return {
    name,
    listLabel,
    listForm: (hotel) => {
      const raw = read(hotel) ? 'Yes' : 'No';
      return { value: read(hotel), raw, text: `${listLabel}: ${raw}` };
    },
    proseForm: (hotel) => ({ value: read(hotel), raw: read(hotel) ? 'Yes' : 'No', text: read(hotel) ? proseYes : proseNo }),
  };
}

const optionalProperties: readonly OptionalProperty[] = [
  {
    name: 'star_rating',
    listLabel: 'Star rating',
    listForm: (hotel) => ({ value: hotel.starRating, raw: String(hotel.starRating), text: `Star rating: ${hotel.starRating}` }),
    proseForm: (hotel, random) => ({
      value: hotel.starRating,
      raw: String(hotel.starRating),
      text: random.pick([
        `${hotel.name} is a ${hotel.starRating}-star hotel in ${hotel.city}.`,
        `This ${hotel.starRating}-star property is one of the better known addresses in ${hotel.city}.`,
      ]),
    }),
  },
  {
    name: 'price_per_night',
    listLabel: 'Price per night',
    listForm: (hotel, random) => {
      const raw = random.pick([`$${withThousandsSeparators(hotel.pricePerNight)}`, `USD ${withThousandsSeparators(hotel.pricePerNight)}.00`]);
      return { value: hotel.pricePerNight, raw, text: `Price per night: ${raw}` };
    },
    proseForm: (hotel, random) => {
      const amount = withThousandsSeparators(hotel.pricePerNight);
      return random.chance(0.5)
        ? { value: hotel.pricePerNight, raw: `${amount} dollars`, text: `Rooms start at ${amount} dollars per night.` }
        : { value: hotel.pricePerNight, raw: `$${amount}`, text: `A standard double room costs $${amount} per night.` };
    },
  },
  {
    name: 'distance_to_center',
    listLabel: 'Distance to center',
    listForm: (hotel) => ({ value: hotel.distanceToCenter, raw: distanceText(hotel), text: `Distance to center: ${distanceText(hotel)}` }),
    proseForm: (hotel, random) => ({
      value: hotel.distanceToCenter,
      raw: distanceText(hotel),
      text: random.pick([`The city center is ${distanceText(hotel)} away.`, `It sits ${distanceText(hotel)} from the city center.`]),
    }),
  },
  booleanProperty('has_pool', 'Swimming pool', (hotel) => hotel.hasPool,
    'Guests can relax in the outdoor swimming pool.', 'There is no swimming pool on site.'),
  booleanProperty('has_airport_shuttle', 'Airport shuttle', (hotel) => hotel.hasAirportShuttle,
    'An airport shuttle runs every hour.', 'The hotel does not offer an airport shuttle.'),
  booleanProperty('pets_allowed', 'Pets allowed', (hotel) => hotel.petsAllowed,
    'Pets are welcome at no extra charge.', 'Pets are not allowed.'),
  {
    name: 'opened_date',
    listLabel: 'Opened',
    listForm: (hotel, random) => {
      const raw = random.chance(0.5) ? isoDate(hotel.openedDate) : dayMonthYear(hotel.openedDate);
      return { value: isoDate(hotel.openedDate), raw, text: `Opened: ${raw}` };
    },
    proseForm: (hotel, random) => {
      if (random.chance(0.5)) {
        const raw = dayMonthYear(hotel.openedDate);
        return { value: isoDate(hotel.openedDate), raw, text: `The hotel opened its doors on ${raw}.` };
      }
      const raw = monthDayYear(hotel.openedDate);
      return { value: isoDate(hotel.openedDate), raw, text: `It first welcomed guests on ${raw}.` };
    },
  },
  {
    name: 'total_rooms',
    listLabel: 'Rooms',
    listForm: (hotel) => {
      const raw = withThousandsSeparators(hotel.totalRooms);
      return { value: hotel.totalRooms, raw, text: `Rooms: ${raw}` };
    },
    proseForm: (hotel) => {
      const raw = withThousandsSeparators(hotel.totalRooms);
      return { value: hotel.totalRooms, raw, text: `It offers ${raw} rooms and suites.` };
    },
  },
  {
    name: 'manager_name',
    listLabel: 'General manager',
    listForm: (hotel) => ({ value: hotel.managerName, raw: hotel.managerName, text: `General manager: ${hotel.managerName}` }),
    proseForm: (hotel) => ({
      value: hotel.managerName,
      raw: hotel.managerName,
      text: `The hotel is run by general manager ${hotel.managerName}.`,
    }),
  },
];

function renderOptionalProperty(property: OptionalProperty, hotel: Hotel, random: SeededRandom): RenderedFacts {
  const placement = random.chance(0.55) ? 'list' : 'prose';
  if (random.chance(missingProbability)) {
    if (placement === 'list' && random.chance(0.5)) {
      return {
        cells: { [property.name]: { value: null, raw: 'N/A', quote: null } },
        statements: [{ placement, text: `${property.listLabel}: N/A` }],
      };
    }
    return { cells: { [property.name]: absentCell }, statements: [] };
  }
  const form = placement === 'list' ? property.listForm(hotel, random) : property.proseForm(hotel, random);
  return {
    cells: { [property.name]: statedCell(form.value, form.raw, form.text) },
    statements: [{ placement, text: form.text }],
  };
}

/**
 * Guest rating and review count: in the list as "Guest rating: 8.7/10" and "Reviews: 1.2k", or in one
 * sentence, "Guests rate it 8.7 out of 10 across 1.2k reviews.", whose quote then supports both.
 */
function renderReviews(hotel: Hotel, random: SeededRandom): RenderedFacts {
  const placement = random.chance(0.5) ? 'list' : 'prose';
  const ratingMissing = random.chance(missingProbability);
  const countMissing = random.chance(missingProbability);
  const countRaw = kiloForm(hotel.reviewCount) && random.chance(0.7)
    ? kiloForm(hotel.reviewCount)!
    : random.chance(0.6) ? withThousandsSeparators(hotel.reviewCount) : String(hotel.reviewCount);
  const rating = hotel.guestRating.toFixed(1);

  if (placement === 'list') {
    const ratingRaw = random.chance(0.5) ? `${rating}/10` : rating;
    const ratingText = `Guest rating: ${ratingMissing ? 'N/A' : ratingRaw}`;
    const countText = `Reviews: ${countMissing ? 'N/A' : countRaw}`;
    return {
      cells: {
        guest_rating: ratingMissing ? { value: null, raw: 'N/A', quote: null } : statedCell(hotel.guestRating, ratingRaw, ratingText),
        review_count: countMissing ? { value: null, raw: 'N/A', quote: null } : statedCell(hotel.reviewCount, countRaw, countText),
      },
      statements: [{ placement, text: ratingText }, { placement, text: countText }],
    };
  }
  let sentence: string | undefined;
  if (!ratingMissing && !countMissing) sentence = `Guests rate it ${rating} out of 10 across ${countRaw} reviews.`;
  else if (!ratingMissing) sentence = `Guests rate it ${rating} out of 10.`;
  else if (!countMissing) sentence = `The hotel has collected ${countRaw} guest reviews.`;
  return {
    cells: {
      guest_rating: ratingMissing ? absentCell : statedCell(hotel.guestRating, rating, sentence!),
      review_count: countMissing ? absentCell : statedCell(hotel.reviewCount, countRaw, sentence!),
    },
    statements: sentence ? [{ placement, text: sentence }] : [],
  };
}

/** Sentences that state nothing the schema asks for: they make the pages read like pages. */
const fillerSentences = [
  'Breakfast is served daily in the garden room.',
  'The rooms are decorated in calm, natural colours.',
  'Staff at the front desk speak several languages.',
  'A small bar in the lobby serves local wines in the evening.',
  'Many rooms look out over the rooftops of the old town.',
  'Luggage storage is available before check-in and after check-out.',
  'The neighbourhood is known for its cafes and small galleries.',
  'Public transport stops are a short walk away.',
  'Quiet rooms facing the courtyard are available on request.',
  'Daily housekeeping is included in every stay.',
];

// ---------------------------------------------------------------------------------------------
// Page layouts

type DocumentFormat = 'html' | 'md' | 'txt';

interface PageContent {
  hotel: Hotel;
  addressLine: string;
  paragraphs: string[][];
  facts: string[];
}

function renderHtml(page: PageContent): string {
  const { hotel } = page;
  const paragraphs = page.paragraphs.map((sentences) => `      <p>${sentences.join(' ')}</p>`);
  const facts = page.facts.map((fact) => `        <li>${fact}</li>`);
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '  <meta charset="utf-8">',
    `  <title>${hotel.name}, ${hotel.city} - Stayfinder</title>`,
    '</head>',
    '<body>',
    `  <nav><a href="/">Stayfinder</a> / <a href="/${hotel.city.toLowerCase()}">${hotel.city}</a></nav>`,
    '  <main>',
    `    <h1>${hotel.name}</h1>`,
    `    <p class="address">${page.addressLine}</p>`,
    '    <section class="overview">',
    '      <h2>About this property</h2>',
    ...paragraphs,
    '    </section>',
    '    <section class="facts">',
    '      <h2>Property facts</h2>',
    '      <ul>',
    ...facts,
    '      </ul>',
    '    </section>',
    '  </main>',
    '  <footer>Prices are per room and night and include taxes.</footer>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function renderMarkdown(page: PageContent): string {
  return [
    `# ${page.hotel.name}`,
    '',
    page.addressLine,
    '',
    '## About this property',
    '',
    ...page.paragraphs.flatMap((sentences) => [sentences.join(' '), '']),
    '## Property facts',
    '',
    ...page.facts.map((fact) => `- ${fact}`),
    '',
  ].join('\n');
}

function renderPlainText(page: PageContent): string {
  return [
    page.hotel.name,
    page.addressLine,
    '',
    ...page.paragraphs.flatMap((sentences) => [sentences.join(' '), '']),
    'Property facts',
    ...page.facts,
    '',
  ].join('\n');
}

const layouts: Record<DocumentFormat, (page: PageContent) => string> = {
  html: renderHtml,
  md: renderMarkdown,
  txt: renderPlainText,
};

/** Text that would need an HTML entity, or that the reducer may not keep verbatim. */
const unsafeCharacters = /[&<>"\u2018\u2019\u201C\u201D\u00A0]/;

function buildDocument(hotel: Hotel, format: DocumentFormat, random: SeededRandom): { path: string; content: string; record: GoldRecord } {
  const addressLine = `${hotel.street}, ${hotel.city}, ${hotel.country}`;
  const rendered = [renderReviews(hotel, random), ...optionalProperties.map((property) => renderOptionalProperty(property, hotel, random))];
  const cells: Partial<Record<PropertyName, GoldCell>> = {
    hotel_name: statedCell(hotel.name, hotel.name, hotel.name),
    city: statedCell(hotel.city, hotel.city, addressLine),
    country: statedCell(hotel.country, hotel.country, addressLine),
  };
  for (const facts of rendered) Object.assign(cells, facts.cells);
  const statements = rendered.flatMap((facts) => facts.statements);

  const facts = statements.filter((statement) => statement.placement === 'list').map((statement) => statement.text);
  const opener = `Welcome to ${hotel.name}, a place to stay in ${hotel.city}.`;
  const prose = random.shuffle([
    ...statements.filter((statement) => statement.placement === 'prose').map((statement) => statement.text),
    ...random.shuffle(fillerSentences).slice(0, 3),
  ]);
  const splitAt = Math.ceil(prose.length / 2);
  const page: PageContent = { hotel, addressLine, paragraphs: [[opener, ...prose.slice(0, splitAt)], prose.slice(splitAt)], facts };
  if (page.paragraphs[1]!.length === 0) page.paragraphs.pop();

  for (const text of [addressLine, ...statements.map((statement) => statement.text)]) {
    if (unsafeCharacters.test(text)) throw new Error(`page text "${text}" holds a character the HTML reducer may rewrite`);
    if (text.length > 200) throw new Error(`quote "${text}" is longer than 200 characters`);
  }
  const path = `docs/${hotel.slug}.${format}`;
  const values = Object.fromEntries(hotelSchema.required.map((name) => [name, cells[name] ?? absentCell]));
  return { path, content: layouts[format](page), record: { document: path, values } };
}

// ---------------------------------------------------------------------------------------------
// The corpus

const formatCounts: Record<DocumentFormat, number> = { html: 35, md: 10, txt: 5 };

/** Every file of the corpus, keyed by path relative to `examples/hotels/`: documents, schema, gold. */
export async function generateHotelCorpus(seed = corpusSeed): Promise<Map<string, string>> {
  const random = new SeededRandom(seed);
  const hotels = generateHotels(random);
  const formats = random.shuffle(
    (Object.entries(formatCounts) as [DocumentFormat, number][]).flatMap(([format, count]) => Array<DocumentFormat>(count).fill(format)),
  );
  const documents = hotels.map((hotel, index) => buildDocument(hotel, formats[index]!, random));

  const files = new Map<string, string>();
  files.set('schema.json', JSON.stringify(hotelSchema, null, 2) + '\n');
  for (const document of documents) files.set(document.path, document.content);
  // Sorted by path so the gold file reads like a directory listing.
  const records = documents.map((document) => document.record).sort((left, right) => (left.document < right.document ? -1 : 1));
  files.set('gold/records.jsonl', toJsonLines(records));
  files.set('questions.jsonl', toJsonLines(await answerQuestions(records, hotelQuestions)));
  return files;
}

async function answerQuestions(records: readonly GoldRecord[], definitions: readonly QuestionDefinition[]) {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await createGoldTable(connection, hotelSchema, records);
    return await computeQuestions(connection, definitions);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Rewrites the corpus directory: the old `docs/` is removed first so no stale page survives. */
async function writeCorpus(directory: string): Promise<void> {
  const files = await generateHotelCorpus();
  await rm(join(directory, 'docs'), { recursive: true, force: true });
  for (const [relativePath, content] of files) {
    const target = join(directory, relativePath);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
  console.log(`wrote ${files.size} files to ${directory}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await writeCorpus(dirname(fileURLToPath(import.meta.url)));
}
