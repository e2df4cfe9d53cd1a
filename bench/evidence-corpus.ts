/**
 * A corpus the evidence check has not seen, for `npm run bench:evidence`: CVs, hotel pages, annual
 * filings and tournament reports, generated from a seed. Each document states its values in the
 * ways such documents do (a labelled line, a sentence, a terse cell, number words, a list) and, as
 * real documents do, states other numbers of the same kind about other things: a team size or a
 * project budget in a CV, a deposit or a count of meeting rooms on a hotel page, a segment's revenue
 * or last year's in a filing, matches played or a final's crowd in a tournament report. Those are
 * what a model picks by mistake. The phrasings were written from what such documents say, before the
 * checks they measure were designed, and are not tuned to them.
 *
 * The gold is in the stand-in's format (`GoldRecord`: per attribute the value, the value as written,
 * and the shortest verbatim passage that states it), and each domain's schema is written as a model
 * predicts one: a name, a description, a unit and examples.
 */
import { SeededRandom as Random } from '../examples/seeded-random.ts';
import type { GoldRecord, GoldValue } from '../tests/helpers/llm-stand-in/load-gold-corpus.ts';

export interface EvidenceCorpusDocument {
  name: string;
  text: string;
  record: GoldRecord;
}

export interface EvidenceCorpusDomain {
  name: string;
  /** The schema as `schema.json` holds it (JSON Schema with `title` and `properties`). */
  schema: { title: string; type: 'object'; properties: Record<string, Record<string, unknown>> };
  documents: EvidenceCorpusDocument[];
}

/** `count` distinct items in random order. */
function sample<T>(random: Random, items: readonly T[], count: number): T[] {
  return random.shuffle(items).slice(0, count);
}

/** "1,234,567". */
function grouped(value: number): string {
  const [whole, fraction] = String(value).split('.');
  return `${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction ? `.${fraction}` : ''}`;
}

const numberWords = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve',
  'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty'];
const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A passage that states a value: the text placed in the document and the quote (the text, unless given). */
interface Statement {
  text: string;
  cells?: Record<string, GoldValue>;
}

function stated(attribute: string, value: GoldValue['value'], raw: string | null, text: string, quote = text): Statement {
  return { text, cells: { [attribute]: { value, raw, quote } } };
}

/** A document assembled from blocks: a heading line, a paragraph of sentences, or a list of items. */
type Block = { heading: string } | { paragraph: Statement[] } | { list: Statement[]; marker?: string } | { line: Statement };

function assemble(name: string, blocks: Block[], attributes: readonly string[]): EvidenceCorpusDocument {
  const lines: string[] = [];
  const values: Record<string, GoldValue> = {};
  const take = (statement: Statement) => Object.assign(values, statement.cells ?? {});
  for (const block of blocks) {
    if ('heading' in block) lines.push(block.heading, '');
    else if ('paragraph' in block) {
      if (block.paragraph.length === 0) continue;
      block.paragraph.forEach(take);
      lines.push(block.paragraph.map((statement) => statement.text).join(' '), '');
    } else if ('list' in block) {
      if (block.list.length === 0) continue;
      block.list.forEach(take);
      lines.push(...block.list.map((statement) => `${block.marker ?? '- '}${statement.text}`), '');
    } else {
      take(block.line);
      lines.push(block.line.text, '');
    }
  }
  for (const attribute of attributes) values[attribute] ??= { value: null, raw: null, quote: null };
  const text = `${lines.join('\n').trim()}\n`;
  for (const [attribute, cell] of Object.entries(values)) {
    if (cell.quote !== null && !text.includes(cell.quote)) throw new Error(`evidence corpus: the quote of ${attribute} in ${name} is not in its text: ${cell.quote}`);
  }
  return { name, text, record: { document: name, values: Object.fromEntries(attributes.map((attribute) => [attribute, values[attribute]!])) } };
}

// ---------------------------------------------------------------------------------------------
// CVs

const firstNames = ['Ana', 'Bruno', 'Chloé', 'Dmitri', 'Elif', 'Farah', 'Gustavo', 'Hana', 'Ivan', 'Jana', 'Kofi', 'Lena', 'Mateo', 'Nadia', 'Omar', 'Priya', 'Quentin', 'Rosa', 'Sven', 'Tariq', 'Uma', 'Viktor', 'Wen', 'Yusuf', 'Zofia'];
const lastNames = ['Silva', 'Okafor', 'Müller', 'Novak', 'Haddad', 'Kowalski', 'Tanaka', 'Ferreira', 'Andersson', 'Rahman', 'Dubois', 'Moreau', 'Petrova', 'Costa', 'Yilmaz', 'Nakamura', 'Brennan', 'Ortega'];
const titles = ['Software Engineer', 'Senior Backend Engineer', 'Data Analyst', 'Product Manager', 'DevOps Engineer', 'Frontend Developer', 'Machine Learning Engineer', 'QA Lead', 'Engineering Manager', 'Site Reliability Engineer'];
const employers = ['Northwind Traders', 'Contoso', 'Fabrikam', 'Tailspin Toys', 'Wide World Importers', 'Adventure Works', 'Litware', 'Proseware', 'Lucerne Publishing', 'Blue Yonder Airlines'];
const cities = ['Lisbon', 'Porto', 'Berlin', 'Warsaw', 'Istanbul', 'Lagos', 'Toronto', 'Austin', 'Dublin', 'Lyon', 'Osaka', 'Nairobi'];
const languages = ['English', 'Portuguese', 'Spanish', 'French', 'German', 'Polish', 'Turkish', 'Japanese', 'Arabic', 'Hindi', 'Italian', 'Dutch'];
const universities = ['University of Porto', 'TU Berlin', 'University of Warsaw', 'Boğaziçi University', 'University of Lagos', 'McGill University', 'Trinity College Dublin'];
const degrees = ['BSc Computer Science', 'MSc Software Engineering', 'BA Economics', 'MSc Data Science', 'BEng Electrical Engineering'];
const hobbies = ['Plays the cello in a community orchestra.', 'Volunteers as a coding mentor for teenagers.', 'Enjoys bouldering and long hikes.', 'Bakes sourdough bread on weekends.'];

export const cvSchema = {
  title: 'Candidates',
  type: 'object' as const,
  properties: {
    candidate_name: { type: 'string', description: 'The full name of the candidate as the CV gives it at the top.', examples: ['Ana Silva'] },
    current_title: { type: 'string', description: 'The job title of the candidate\'s current (most recent) position, without the employer.', examples: ['Software Engineer', 'Data Analyst'] },
    years_of_experience: { type: 'number', unit: 'years', description: 'Total years of professional work experience the candidate states. "11 years" is 11; "7.5 years" is 7.5.', examples: [11, 7.5] },
    expected_salary: { type: 'number', unit: 'USD', description: 'The yearly salary the candidate asks for, in US dollars. "$95k" is 95000.', examples: [95000, 120000] },
    birth_year: { type: 'integer', description: 'The year the candidate was born, as four digits.', examples: [1988, 1975] },
    num_languages: { type: 'integer', description: 'How many spoken languages the candidate lists, counting the native one.', examples: [2, 3] },
  },
};

function generateCv(random: Random, index: number): EvidenceCorpusDocument {
  const name = `${random.pick(firstNames)} ${random.pick(lastNames)}`;
  const title = random.pick(titles);
  const employer = random.pick(employers);
  const previous = random.pick(employers.filter((other) => other !== employer));
  const city = random.pick(cities);
  const birthYear = random.integer(1962, 2001);
  const graduated = birthYear + random.integer(21, 25);
  const joined = Math.min(2024, graduated + random.integer(2, 8));
  const halfYears = random.chance(0.15);
  const experience = Math.max(1, Math.min(2024 - graduated, random.integer(1, 30))) + (halfYears ? 0.5 : 0);
  const salary = random.pick([random.integer(40, 240) * 1000, random.integer(400, 2400) * 100, random.integer(60, 180) * 1000 + 250]);
  const spoken = sample(random, languages, random.pick([1, 1, 2, 2, 3, 3, 4]));
  const team = random.integer(3, 25);
  const budget = random.pick([random.integer(12, 95) / 10, random.integer(1, 9)]);
  const savings = random.integer(5, 90) * 10_000;
  const marathonYear = random.integer(2008, 2023);

  // Years of experience.
  const experienceWritten = halfYears ? String(experience) : random.chance(0.2) && experience <= 20 ? numberWords[experience]! : String(experience);
  const experienceForms: Statement[] = [
    stated('years_of_experience', experience, `${experienceWritten} years`, `${title} with ${experienceWritten} years of experience in ${random.pick(['payments', 'logistics software', 'online retail', 'healthcare data', 'developer tools'])}.`),
    stated('years_of_experience', experience, `${experience} yrs`, `Experience: ${experience} yrs`),
    stated('years_of_experience', experience, `${experience} years`, `Total experience: ${experience} years`),
    stated('years_of_experience', experience, `${experienceWritten} years`, `I have been working in the industry for ${experienceWritten} years.`),
    stated('years_of_experience', experience, `${experience}+ years`, `${experience}+ years building production systems.`),
  ];
  const experienceStatement = random.pick(experienceForms);

  // Expected salary.
  const salaryRaw = random.pick([`$${grouped(salary)}`, `USD ${grouped(salary)}`, `${grouped(salary)} USD`, salary % 1000 === 0 ? `$${salary / 1000}k` : `$${grouped(salary)}`]);
  const salaryForms: Statement[] = [
    stated('expected_salary', salary, salaryRaw, `Expected salary: ${salaryRaw}`),
    stated('expected_salary', salary, salaryRaw, `Salary expectation: ${salaryRaw} per year`),
    stated('expected_salary', salary, salaryRaw, `Looking for a base salary of around ${salaryRaw}.`),
    stated('expected_salary', salary, salaryRaw, `Desired compensation: ${salaryRaw} annually`),
  ];
  if (salary % 1000 !== 0) {
    const thousands = `${salary / 1000} thousand dollars`;
    salaryForms.push(stated('expected_salary', salary, thousands, `Expected compensation: ${thousands} a year.`));
  }
  const salaryStatement = random.chance(0.85) ? random.pick(salaryForms) : undefined;

  // Birth year.
  const birthMonth = random.integer(1, 12);
  const birthDay = random.integer(1, 28);
  const birthForms: Statement[] = [
    stated('birth_year', birthYear, String(birthYear), `Born: ${birthYear}`),
    stated('birth_year', birthYear, String(birthYear), `Date of birth: ${birthDay} ${months[birthMonth - 1]} ${birthYear}`),
    stated('birth_year', birthYear, String(birthYear), `Born in ${birthYear} in ${city}.`),
    stated('birth_year', birthYear, String(birthYear), `Year of birth: ${birthYear}`),
    stated('birth_year', birthYear, String(birthYear), `b. ${birthYear}`),
  ];
  const birthStatement = random.chance(0.8) ? random.pick(birthForms) : undefined;

  // Languages: a list whose length is the count (one item included).
  const listed = spoken.length === 1 ? spoken[0]! : `${spoken.slice(0, -1).join(', ')} and ${spoken.at(-1)}`;
  const languageForms: Statement[] = [
    stated('num_languages', spoken.length, null, `Languages: ${listed}`),
    stated('num_languages', spoken.length, null, spoken.length === 1 ? `Speaks only ${spoken[0]}.` : `Fluent in ${listed}.`),
    stated('num_languages', spoken.length, null, spoken.length === 1 ? `${spoken[0]} only` : `Languages spoken: ${spoken.join(', ')}`),
  ];
  const languageStatement = random.pick(languageForms);

  const titleStatement = random.pick<Statement>([
    stated('current_title', title, title, `Current role: ${title} at ${employer}.`),
    stated('current_title', title, title, `${title}, ${employer} (${joined}–present)`),
    stated('current_title', title, title, `Currently working as a ${title} at ${employer}.`),
  ]);

  // What the CV says of other things, with numbers of the same kinds.
  const achievements: Statement[] = sample(random, [
    { text: `Led a team of ${team} engineers through a migration to event-driven services.` },
    { text: `Managed a project budget of $${budget}M across three countries.` },
    { text: `Cut cloud costs by $${grouped(savings)} a year by rightsizing clusters.` },
    { text: `Mentored ${random.integer(2, 12)} junior developers.` },
    { text: `Maintained ${random.integer(10, 60)} microservices with ${random.integer(2, 9)} on-call rotations.` },
    { text: `Shipped ${random.integer(6, 40)} releases with zero downtime.` },
    { text: `Won a $${grouped(random.integer(1, 20) * 1000)} hackathon prize in ${random.integer(2012, 2023)}.` },
    { text: `Reduced page load time by ${random.integer(20, 70)}%.` },
  ], random.integer(3, 5));
  const otherFacts: Statement[] = [
    { text: `Has run marathons since ${marathonYear}.` },
    { text: random.pick(hobbies) },
  ];

  const header: Block[] = [{ heading: `# ${name}` }, { line: { text: `${city} · ${name.toLowerCase().replace(/[^a-z]+/g, '.')}@example.com · +${random.integer(30, 99)} ${random.integer(100, 999)} ${random.integer(100, 999)} ${random.integer(100, 999)}` } }];
  const summarySentences: Statement[] = [];
  const facts: Statement[] = [];
  (experienceStatement.text.endsWith('.') ? summarySentences : facts).push(experienceStatement);
  if (titleStatement.text.endsWith('.')) summarySentences.push(titleStatement);
  if (birthStatement) (birthStatement.text.endsWith('.') ? otherFacts : facts).push(birthStatement);
  if (salaryStatement) (salaryStatement.text.endsWith('.') ? summarySentences : facts).push(salaryStatement);
  const languageBlock: Block = languageStatement.text.endsWith('.')
    ? { paragraph: [languageStatement] }
    : random.chance(0.3) && spoken.length > 1 && languageStatement.text.startsWith('Languages:')
      ? { list: spoken.map((language, at) => (at === 0 ? { text: language, cells: { num_languages: { value: spoken.length, raw: null, quote: spoken.join('\n- ') } } } : { text: language })) }
      : { line: languageStatement };
  const blocks: Block[] = [
    ...header,
    { heading: '## Summary' },
    { paragraph: summarySentences },
    ...(facts.length ? [{ list: facts } as Block] : []),
    { heading: '## Experience' },
    { line: titleStatement.text.endsWith('.') ? { text: `${employer} (${joined}–present)` } : titleStatement },
    { list: achievements },
    { line: { text: `${previous} — Software Engineer (${graduated}–${joined})` } },
    { heading: '## Education' },
    { line: { text: `${random.pick(degrees)}, ${random.pick(universities)}, ${graduated}` } },
    { heading: '## Languages' },
    languageBlock,
    { heading: '## Other' },
    { paragraph: otherFacts },
  ];
  return withName(assemble(`cv-${String(index).padStart(4, '0')}`, blocks, Object.keys(cvSchema.properties)), 'candidate_name', name);
}

/** The document with `attribute` stated by its heading (the name the page is titled with). */
function withName(document: EvidenceCorpusDocument, attribute: string, name: string): EvidenceCorpusDocument {
  document.record.values[attribute] = { value: name, raw: name, quote: name };
  return document;
}

// ---------------------------------------------------------------------------------------------
// Hotel pages

const hotelWords = [['Harbour', 'Linden', 'Saffron', 'Cobalt', 'Meridian', 'Juniper', 'Alder', 'Corvus'], ['House', 'Hotel', 'Suites', 'Lodge', 'Inn', 'Residence']];

export const hotelSchema = {
  title: 'Hotels',
  type: 'object' as const,
  properties: {
    hotel_name: { type: 'string', description: 'The hotel\'s name as the page title gives it.', examples: ['Harbour House'] },
    price_per_night: { type: 'number', unit: 'USD', description: 'The price of one night in a standard double room, in US dollars.', examples: [189, 240] },
    total_rooms: { type: 'integer', description: 'The number of guest rooms the hotel has.', examples: [120, 48] },
    star_rating: { type: 'integer', description: 'The official star rating, 1 to 5.', examples: [4] },
    distance_to_airport: { type: 'number', unit: 'km', description: 'How far the hotel is from the nearest airport, in kilometres.', examples: [18, 12.5] },
    year_opened: { type: 'integer', description: 'The year the hotel first opened.', examples: [1998] },
  },
};

function generateHotel(random: Random, index: number): EvidenceCorpusDocument {
  const name = `${random.pick(hotelWords[0]!)} ${random.pick(hotelWords[1]!)} ${String(index).padStart(3, '0')}`;
  const city = random.pick(cities);
  const price = random.integer(60, 650);
  const rooms = random.integer(12, 480);
  const stars = random.integer(2, 5);
  const airport = random.chance(0.3) ? random.integer(30, 400) / 10 : random.integer(3, 60);
  const opened = random.integer(1890, 2020);
  const deposit = random.pick([50, 100, 150, 200, 250]);
  const meetingRooms = random.integer(2, 9);

  const priceRaw = random.pick([`$${price}`, `USD ${price}.00`, `${price} dollars`, `US$${price}`]);
  const priceStatement = random.pick<Statement>([
    stated('price_per_night', price, priceRaw, `Price per night: ${priceRaw}`),
    stated('price_per_night', price, priceRaw, `Rates start at ${priceRaw} per night for a double room.`),
    stated('price_per_night', price, priceRaw, `A standard double room costs ${priceRaw} a night.`),
    stated('price_per_night', price, priceRaw, `Nightly rate: ${priceRaw}`),
    stated('price_per_night', price, priceRaw, `Double rooms from ${priceRaw}`),
  ]);
  const roomsStatement = random.pick<Statement>([
    stated('total_rooms', rooms, String(rooms), `The hotel has ${rooms} rooms.`),
    stated('total_rooms', rooms, String(rooms), `Rooms: ${rooms}`),
    stated('total_rooms', rooms, String(rooms), `Its ${rooms} guest rooms look out over the ${random.pick(['bay', 'old town', 'park', 'river'])}.`),
    stated('total_rooms', rooms, String(rooms), `${rooms} rooms and suites`),
  ]);
  const starStatement = random.pick<Statement>([
    stated('star_rating', stars, String(stars), `A ${stars}-star hotel in the heart of ${city}.`),
    stated('star_rating', stars, String(stars), `Star rating: ${stars}`),
    stated('star_rating', stars, `${stars} stars`, `Category: ${stars} stars`),
  ]);
  const airportRaw = `${airport} km`;
  const airportStatement = random.chance(0.85) ? random.pick<Statement>([
    stated('distance_to_airport', airport, airportRaw, `The airport is ${airportRaw} away.`),
    stated('distance_to_airport', airport, airportRaw, `Airport: ${airportRaw}`),
    stated('distance_to_airport', airport, airportRaw, `It is ${airportRaw} from ${city} International Airport.`),
  ]) : undefined;
  const openedStatement = random.chance(0.8) ? random.pick<Statement>([
    stated('year_opened', opened, String(opened), `Opened in ${opened}, the hotel ${random.pick(['was restored in the 1990s', 'has kept its original staircase', 'is still family run'])}.`),
    stated('year_opened', opened, String(opened), `Since ${opened}`),
    stated('year_opened', opened, String(opened), `Year opened: ${opened}`),
  ]) : undefined;

  const others: Statement[] = sample(random, [
    { text: `A refundable deposit of $${deposit} is held at check-in.` },
    { text: `Parking costs $${random.integer(10, 45)} per day.` },
    { text: `Breakfast is $${random.integer(9, 32)} per person.` },
    { text: `Airport transfers are $${random.integer(25, 90)} each way.` },
    { text: `The ${random.integer(2005, 2022)} renovation cost $${random.integer(12, 95) / 10} million.` },
    { text: `There are ${meetingRooms} meeting rooms for up to ${random.integer(20, 300)} guests.` },
    { text: `The building has ${random.integer(3, 30)} floors and ${random.integer(1, 4)} restaurants.` },
    { text: `The beach is ${random.integer(2, 9) * 100} m away.` },
    { text: `The old town is ${random.integer(1, 9)} km from the hotel.` },
    { text: `It won a regional hospitality award in ${random.integer(2010, 2023)}.` },
  ], random.integer(4, 6));
  const listed: Statement[] = [];
  const prose: Statement[] = [];
  for (const statement of [priceStatement, roomsStatement, starStatement, airportStatement, openedStatement]) {
    if (statement) (statement.text.endsWith('.') ? prose : listed).push(statement);
  }
  const blocks: Block[] = [
    { heading: `# ${name}` },
    { line: { text: `${random.integer(1, 240)} ${random.pick(['Harbour Walk', 'Station Road', 'Market Street', 'Rua Nova'])}, ${city}` } },
    { heading: '## About' },
    { paragraph: sample(random, [...prose, ...others.slice(0, 3)], prose.length + Math.min(3, others.length)) },
    { heading: '## Good to know' },
    { list: sample(random, [...listed, ...others.slice(3)], listed.length + Math.max(0, others.length - 3)) },
  ];
  return withName(assemble(`hotel-${String(index).padStart(4, '0')}`, blocks, Object.keys(hotelSchema.properties)), 'hotel_name', name);
}

// ---------------------------------------------------------------------------------------------
// Annual filings

const companyWords = [['Apex', 'Borealis', 'Cinder', 'Delta', 'Evergreen', 'Foundry', 'Granite', 'Helix', 'Ironwood', 'Juno'], ['Systems', 'Holdings', 'Industries', 'Labs', 'Logistics', 'Foods', 'Energy', 'Networks']];
const segments = ['Cloud', 'Devices', 'Services', 'Retail', 'Industrial', 'Consumer'];

export const filingSchema = {
  title: 'Annual filings',
  type: 'object' as const,
  properties: {
    company_name: { type: 'string', description: 'The company the annual report is for.', examples: ['Apex Systems'] },
    fiscal_year: { type: 'integer', description: 'The fiscal year the report covers.', examples: [2023] },
    revenue: { type: 'number', unit: 'USD', scale: 1e6, description: 'Total revenue of the company for the fiscal year the report covers, in millions of US dollars.', examples: [5210, 830.5] },
    net_income: { type: 'number', unit: 'USD', scale: 1e6, description: 'Net income for the fiscal year, in millions of US dollars; a loss is negative.', examples: [610, -45] },
    employees: { type: 'integer', description: 'The number of people the company employs at the end of the fiscal year.', examples: [12400] },
  },
};

function generateFiling(random: Random, index: number): EvidenceCorpusDocument {
  const company = `${random.pick(companyWords[0]!)} ${random.pick(companyWords[1]!)} ${String(index).padStart(3, '0')}`;
  const year = random.integer(2015, 2024);
  const revenue = random.integer(200, 20_000);
  const prior = Math.round(revenue / (1 + random.integer(-15, 30) / 100));
  const [firstSegment, secondSegment] = sample(random, segments, 2);
  const segmentRevenue = Math.round(revenue * random.integer(15, 60) / 100);
  const netIncome = random.chance(0.2) ? -random.integer(5, 400) : Math.round(revenue * random.integer(3, 25) / 100);
  const priorIncome = Math.round(netIncome * random.integer(60, 140) / 100) || 1;
  const employees = random.integer(80, 60_000);
  const operatingExpenses = Math.round(revenue * random.integer(40, 90) / 100);

  const revenueBillions = revenue >= 1000 && revenue % 10 === 0 && random.chance(0.4);
  const revenueRaw = revenueBillions ? `$${revenue / 1000} billion` : random.pick([`$${grouped(revenue)} million`, `$${grouped(revenue)}M`, `USD ${grouped(revenue)} million`]);
  const revenueStatement = random.pick<Statement>([
    stated('revenue', revenue, revenueRaw, `Total revenue for fiscal ${year} was ${revenueRaw}, compared with $${grouped(prior)} million in fiscal ${year - 1}.`),
    stated('revenue', revenue, revenueRaw, `Revenue: ${revenueRaw}`),
    stated('revenue', revenue, revenueRaw, `Net sales rose to ${revenueRaw} in ${year}.`),
    stated('revenue', revenue, revenueRaw, `We generated revenue of ${revenueRaw} in fiscal ${year}.`),
  ]);
  const incomeRaw = netIncome < 0 ? `$${grouped(-netIncome)} million` : `$${grouped(netIncome)} million`;
  const incomeStatement = random.pick<Statement>([
    stated('net_income', netIncome, netIncome < 0 ? `(${grouped(-netIncome)})` : grouped(netIncome), `Net income (loss) | ${netIncome < 0 ? `(${grouped(-netIncome)})` : grouped(netIncome)} | ${priorIncome < 0 ? `(${grouped(-priorIncome)})` : grouped(priorIncome)}`),
    // A loss stated as an amount beside the word: the value is derived (negative), as a model gives it.
    stated('net_income', netIncome, netIncome < 0 ? null : incomeRaw, netIncome < 0 ? `We recorded a net loss of ${incomeRaw} for the year.` : `Net income was ${incomeRaw} for the year.`),
    stated('net_income', netIncome, netIncome < 0 ? null : incomeRaw, netIncome < 0 ? `Net loss: ${incomeRaw}` : `Net income: ${incomeRaw}`),
  ]);
  const employeesStatement = random.chance(0.85) ? random.pick<Statement>([
    stated('employees', employees, grouped(employees), `As of December 31, ${year}, we had approximately ${grouped(employees)} employees.`),
    stated('employees', employees, grouped(employees), `Employees at year end: ${grouped(employees)}`),
    stated('employees', employees, grouped(employees), `Our workforce numbered ${grouped(employees)} people at year end.`),
  ]) : undefined;
  const yearStatement = random.pick<Statement>([
    stated('fiscal_year', year, String(year), `Annual Report for the fiscal year ended December 31, ${year}`),
    stated('fiscal_year', year, String(year), `Fiscal year ${year}`),
  ]);

  const others: Statement[] = sample(random, [
    { text: `Revenue from the ${firstSegment} segment was $${grouped(segmentRevenue)} million.` },
    { text: `The ${secondSegment} segment contributed $${grouped(Math.round(segmentRevenue / 2))} million of sales.` },
    { text: `In fiscal ${year - 1}, revenue was $${grouped(prior)} million.` },
    { text: `Operating expenses were $${grouped(operatingExpenses)} million.` },
    { text: `Research and development spending reached $${grouped(Math.round(revenue * 0.08) || 1)} million.` },
    { text: `Cash and cash equivalents stood at $${grouped(random.integer(50, 9000))} million.` },
    { text: `We operate in ${random.integer(3, 60)} countries and serve about ${grouped(random.integer(200, 90_000))} customers.` },
    { text: `We returned $${grouped(random.integer(10, 2000))} million to shareholders through buybacks.` },
    { text: `Net income in ${year - 1} was $${grouped(Math.abs(priorIncome))} million.` },
  ], random.integer(4, 6));
  const facts = [revenueStatement, incomeStatement, employeesStatement].filter((statement): statement is Statement => statement !== undefined);
  const blocks: Block[] = [
    { heading: `# ${company}` },
    { line: yearStatement },
    { heading: '## Highlights' },
    { paragraph: sample(random, [...facts.filter((statement) => statement.text.endsWith('.')), ...others.slice(0, 3)], 100) },
    { heading: '## Financial data' },
    ...(facts.some((statement) => statement.text.includes('|')) ? [{ line: { text: `(in millions of USD) | ${year} | ${year - 1}` } } as Block] : []),
    { list: facts.filter((statement) => !statement.text.endsWith('.')), marker: facts.some((statement) => statement.text.includes('|')) ? '' : '- ' },
    { heading: '## Operations' },
    { paragraph: others.slice(3) },
  ];
  return withName(assemble(`filing-${String(index).padStart(4, '0')}`, blocks, Object.keys(filingSchema.properties)), 'company_name', company);
}

// ---------------------------------------------------------------------------------------------
// Tournament reports

const tournamentWords = [['Northern', 'Coastal', 'Highland', 'Continental', 'Metropolitan', 'Island', 'Valley'], ['Cup', 'Championship', 'Trophy', 'League Finals']];
const clubs = ['Rovers', 'United', 'Athletic', 'City', 'Wanderers', 'Albion', 'Rangers', 'Harriers', 'Sporting', 'Dynamo'];

export const tournamentSchema = {
  title: 'Tournaments',
  type: 'object' as const,
  properties: {
    tournament_name: { type: 'string', description: 'The tournament\'s name and edition as the report\'s title gives it.', examples: ['Coastal Cup 2019'] },
    year: { type: 'integer', description: 'The year the tournament was played.', examples: [2019] },
    teams: { type: 'integer', description: 'The number of teams that took part in the tournament.', examples: [16] },
    matches_played: { type: 'integer', description: 'The total number of matches played.', examples: [31] },
    goals_scored: { type: 'integer', description: 'The total number of goals scored over all matches.', examples: [87] },
    attendance: { type: 'integer', description: 'The total number of spectators over all matches.', examples: [412000] },
  },
};

function generateTournament(random: Random, index: number): EvidenceCorpusDocument {
  const year = random.integer(1990, 2024);
  const name = `${random.pick(tournamentWords[0]!)} ${random.pick(tournamentWords[1]!)} ${year} (${String(index).padStart(3, '0')})`;
  const teams = random.pick([8, 12, 16, 20, 24, 32]);
  const groups = teams / 4;
  const matches = groups * 6 + teams / 2 - 1 + random.integer(0, 1);
  const goals = Math.round(matches * random.integer(180, 320) / 100);
  const attendance = matches * random.integer(3000, 45_000);
  const finalCrowd = random.integer(15_000, 90_000);
  const venues = random.integer(3, 12);
  const [champion, runnerUp] = sample(random, clubs, 2);
  const topScorer = `${random.pick(firstNames)} ${random.pick(lastNames)}`;
  const topGoals = random.integer(4, 11);

  const teamsWritten = teams <= 20 && random.chance(0.3) ? numberWords[teams]! : String(teams);
  const teamsStatement = random.pick<Statement>([
    stated('teams', teams, teamsWritten, `${teamsWritten[0]!.toUpperCase()}${teamsWritten.slice(1)} teams took part, drawn into ${groups} groups.`),
    stated('teams', teams, String(teams), `Teams: ${teams}`),
    stated('teams', teams, String(teams), `Teams | ${teams}`),
  ]);
  const matchesStatement = random.pick<Statement>([
    stated('matches_played', matches, String(matches), `Matches played: ${matches}`),
    stated('matches_played', matches, String(matches), `Matches played | ${matches}`),
    stated('matches_played', matches, String(matches), `A total of ${matches} matches were played over ${random.integer(18, 32)} days.`),
  ]);
  const perMatch = (goals / matches).toFixed(2);
  const goalsStatement = random.pick<Statement>([
    stated('goals_scored', goals, String(goals), `Goals scored: ${goals} (${perMatch} per match)`),
    stated('goals_scored', goals, String(goals), `Goals scored | ${goals} (${perMatch} per match)`),
    stated('goals_scored', goals, String(goals), `${goals} goals were scored, an average of ${perMatch} per match.`),
  ]);
  const attendanceRaw = random.chance(0.7) ? grouped(attendance) : `${(attendance / 1e6).toFixed(2)} million`;
  const attendanceValue = attendanceRaw.endsWith('million') ? Math.round(Number((attendance / 1e6).toFixed(2)) * 1e6) : attendance;
  const attendanceStatement = random.chance(0.85) ? random.pick<Statement>([
    stated('attendance', attendanceValue, attendanceRaw, `Attendance: ${attendanceRaw}`),
    stated('attendance', attendanceValue, attendanceRaw, `Attendance | ${attendanceRaw}`),
    stated('attendance', attendanceValue, attendanceRaw, `In all, ${attendanceRaw} spectators attended the matches.`),
  ]) : undefined;
  const yearStatement = stated('year', year, String(year), `The ${year} edition was played in ${random.pick(cities)}.`);

  const others: Statement[] = sample(random, [
    { text: `${champion} beat ${runnerUp} ${random.integer(1, 4)}–${random.integer(0, 1)} in the final in front of a crowd of ${grouped(finalCrowd)}.` },
    { text: `${topScorer} finished as top scorer with ${topGoals} goals.` },
    { text: `Matches were held at ${venues} stadiums in ${random.integer(2, venues)} host cities.` },
    { text: `The largest stadium has a capacity of ${grouped(random.integer(20, 95) * 1000)}.` },
    { text: `${random.integer(3, 40)} players were sent off during the tournament.` },
    { text: `Prize money totalled $${random.integer(2, 60)} million.` },
  ], random.integer(3, 5));
  const facts = [teamsStatement, matchesStatement, goalsStatement, attendanceStatement].filter((statement): statement is Statement => statement !== undefined);
  const separator = facts.some((statement) => statement.text.includes(' | ')) ? ' | ' : ': ';
  const infobox = facts.filter((statement) => !statement.text.endsWith('.'))
    .map((statement) => (separator === ' | ' ? retagged(statement, ': ', ' | ') : statement));
  const blocks: Block[] = [
    { heading: `# ${name}` },
    { paragraph: [yearStatement, ...facts.filter((statement) => statement.text.endsWith('.')), ...others.slice(0, 2)] },
    { heading: '## Tournament statistics' },
    { list: infobox, marker: '' },
    { line: { text: `Champions${separator}${champion}` } },
    { heading: '## Review' },
    { paragraph: others.slice(2) },
  ];
  return withName(assemble(`tournament-${String(index).padStart(4, '0')}`, blocks, Object.keys(tournamentSchema.properties)), 'tournament_name', name);
}

/** An infobox keeps one separator throughout: a statement written with `from` is rewritten with `to`, quote and all. */
function retagged(statement: Statement, from: string, to: string): Statement {
  if (!statement.text.includes(from)) return statement;
  const cells = Object.fromEntries(Object.entries(statement.cells ?? {}).map(([attribute, cell]) => [attribute, { ...cell, quote: cell.quote?.replace(from, to) ?? null }]));
  return { text: statement.text.replace(from, to), cells };
}

// ---------------------------------------------------------------------------------------------

/** Every domain with `count` documents each, the same for the same seed. */
export function generateEvidenceCorpus({ seed = 37, count = 250 }: { seed?: number; count?: number } = {}): EvidenceCorpusDomain[] {
  const domains: Array<[string, EvidenceCorpusDomain['schema'], (random: Random, index: number) => EvidenceCorpusDocument]> = [
    ['cvs', cvSchema, generateCv],
    ['hotels', hotelSchema, generateHotel],
    ['filings', filingSchema, generateFiling],
    ['tournaments', tournamentSchema, generateTournament],
  ];
  return domains.map(([name, schema, generate], domainIndex) => {
    const random = new Random(seed * 1000 + domainIndex);
    return { name, schema, documents: Array.from({ length: count }, (_, index) => generate(random, index + 1)) };
  });
}
