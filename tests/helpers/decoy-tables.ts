import { seededRandom } from '../../examples/seeded-random.ts';

/** One generated table: its name and its rows as CSV text (header first). */
export interface DecoyTable {
  name: string;
  csv: string;
}

type Value = string | number | boolean;

const cities = [
  'Paris', 'Rome', 'Madrid', 'Lisbon', 'Vienna', 'Prague', 'Amsterdam', 'Barcelona', 'Tokyo', 'Osaka', 'Seoul', 'Lima',
  'Bogota', 'Quito', 'Cairo', 'Nairobi', 'Lagos', 'Accra', 'Dakar', 'Tunis', 'Oslo', 'Bergen', 'Helsinki', 'Tampere',
  'Krakow', 'Gdansk', 'Riga', 'Tallinn', 'Vilnius', 'Sofia', 'Varna', 'Zagreb', 'Split', 'Sarajevo', 'Skopje', 'Tirana',
  'Denver', 'Austin', 'Boston', 'Chicago', 'Toronto', 'Ottawa', 'Calgary', 'Perth', 'Adelaide', 'Auckland', 'Hobart', 'Manila',
];
const countries = [
  'France', 'Italy', 'Spain', 'Portugal', 'Austria', 'Japan', 'Peru', 'Colombia', 'Egypt', 'Kenya', 'Nigeria', 'Ghana', 'Norway',
  'Finland', 'Poland', 'Latvia', 'Estonia', 'Bulgaria', 'Croatia', 'Albania', 'Canada', 'Australia', 'New Zealand', 'Chile',
];
const firstNames = ['Ana', 'Ben', 'Chen', 'Dara', 'Eli', 'Fatima', 'Goran', 'Hana', 'Ivo', 'Jana', 'Kofi', 'Lea', 'Milan', 'Nora', 'Omar', 'Pia'];
const lastNames = ['Novak', 'Silva', 'Okafor', 'Berg', 'Kowalski', 'Rossi', 'Tanaka', 'Haddad', 'Moreau', 'Lind', 'Petrov', 'Mensah'];
const words = ['amber', 'cobalt', 'delta', 'ember', 'falcon', 'garnet', 'harbor', 'iris', 'juniper', 'kestrel', 'lumen', 'meridian', 'nova', 'onyx'];

type Generator = (random: () => number, row: number) => Value;
const pick = <T>(values: readonly T[]): ((random: () => number) => T) => (random) => values[Math.floor(random() * values.length)]!;
const integer = (low: number, high: number): Generator => (random) => low + Math.floor(random() * (high - low + 1));
const amount = (low: number, high: number): Generator => (random) => Math.round((low + random() * (high - low)) * 100) / 100;
const person: Generator = (random) => `${pick(firstNames)(random)} ${pick(lastNames)(random)}`;
const label = (prefix: string): Generator => (random) => `${prefix} ${pick(words)(random)} ${pick(words)(random)}`.trim();
const identifier: Generator = (_, row) => row + 1;
const code = (prefix: string): Generator => (_, row) => `${prefix}${String(row + 100).padStart(4, '0')}`;

/**
 * Table kinds of a typical analytics database, several with columns that collide with the sample
 * tables' words and values (city, country, name, price, year, rating, population): decoys are
 * only a test of table choice if some of them could plausibly be meant.
 */
const domains: Array<{ name: string; columns: Record<string, Generator> }> = [
  { name: 'weather_stations', columns: { station_id: identifier, city: pick(cities), country: pick(countries), elevation_m: integer(0, 2400), opened_year: integer(1900, 2020) } },
  { name: 'airports', columns: { airport_code: code('AP'), airport_name: label('Airport'), city: pick(cities), country: pick(countries), passengers: integer(10_000, 9_000_000) } },
  { name: 'employees', columns: { employee_id: identifier, full_name: person, department: pick(['Sales', 'Finance', 'Legal', 'Research', 'Support']), salary: integer(30_000, 150_000), hire_year: integer(1995, 2024), office_city: pick(cities) } },
  { name: 'products', columns: { sku: code('SKU'), product_name: label(''), category: pick(['Garden', 'Kitchen', 'Toys', 'Office', 'Sports']), price: amount(2, 900), stock: integer(0, 5000) } },
  { name: 'flights', columns: { flight_number: code('FL'), origin_city: pick(cities), destination_city: pick(cities), duration_minutes: integer(40, 900), airline: label('Air') } },
  { name: 'museums', columns: { museum_name: label('Museum'), city: pick(cities), visitors: integer(5_000, 9_000_000), founded_year: integer(1750, 2015) } },
  { name: 'universities', columns: { university_name: label('University'), city: pick(cities), country: pick(countries), students: integer(800, 90_000), founded_year: integer(1100, 2010) } },
  { name: 'restaurants', columns: { restaurant_name: label(''), city: pick(cities), cuisine: pick(['Thai', 'Italian', 'Peruvian', 'Lebanese', 'Nordic']), rating: amount(1, 5), average_price: amount(8, 180) } },
  { name: 'sales_orders', columns: { order_id: identifier, customer_name: person, product_name: label(''), quantity: integer(1, 40), amount: amount(5, 4000) } },
  { name: 'sensor_readings', columns: { sensor_id: identifier, location: pick(cities), reading: amount(-20, 45), unit: pick(['C', 'hPa', 'ppm']) } },
  { name: 'books', columns: { title: label('The'), author: person, genre: pick(['Crime', 'Poetry', 'History', 'Science']), pages: integer(60, 1200), published_year: integer(1850, 2024) } },
  { name: 'movies', columns: { title: label(''), director: person, release_year: integer(1930, 2024), box_office_usd: integer(100_000, 900_000_000) } },
  { name: 'car_rentals', columns: { rental_id: identifier, city: pick(cities), car_model: label('Model'), daily_rate: amount(19, 300) } },
  { name: 'stadiums', columns: { stadium_name: label('Stadium'), city: pick(cities), country: pick(countries), capacity: integer(2_000, 99_000) } },
  { name: 'rivers', columns: { river_name: label('River'), country: pick(countries), length_km: integer(20, 6_600) } },
  { name: 'census_districts', columns: { district_name: label('District'), population: integer(1_000, 400_000), households: integer(400, 160_000) } },
  { name: 'concerts', columns: { artist: person, venue: label('Hall'), city: pick(cities), ticket_price: amount(15, 350) } },
  { name: 'hospitals', columns: { hospital_name: label('Hospital'), city: pick(cities), beds: integer(20, 2_000), opened_year: integer(1850, 2022) } },
  { name: 'tax_records', columns: { taxpayer_id: identifier, region: pick(['North', 'South', 'East', 'West']), income: integer(0, 500_000), tax_paid: integer(0, 200_000) } },
  { name: 'apartments', columns: { listing_id: identifier, city: pick(cities), bedrooms: integer(0, 5), monthly_rent: amount(300, 6000), has_balcony: (random) => random() < 0.4 } },
];

function csvCell(value: Value): string {
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * `count` decoy tables (`museums_7`, `airports_12`, …), 20 to 80 rows each, the same for the same
 * seed: the database a question must find its tables in, for tests and `npm run bench:tables`.
 */
export function generateDecoyTables(count: number, seed = 11): DecoyTable[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, index) => {
    const domain = domains[index % domains.length]!;
    const rows = 20 + Math.floor(random() * 61);
    const header = Object.keys(domain.columns);
    const lines = [header.join(',')];
    for (let row = 0; row < rows; row += 1) lines.push(Object.values(domain.columns).map((generate) => csvCell(generate(random, row))).join(','));
    return { name: `${domain.name}_${Math.floor(index / domains.length) + 1}`, csv: `${lines.join('\n')}\n` };
  });
}
