import { describe, expect, it } from 'vitest';
import { chooseTables, questionPhrases, solveTableSet, type CatalogTable, type TableCatalog, type TableLink } from '../../core/index.ts';

function table(name: string, columns: Array<[string, 'string' | 'integer' | 'number' | 'boolean', string]>, values: Record<string, string[]> = {}, origin: CatalogTable['origin'] = 'extracted'): CatalogTable & { values: Record<string, string[]> } {
  return {
    name,
    schema: { title: name.replace(/_/g, ' '), attributes: columns.map(([column, kind, description]) => ({ name: column, kind, description, examples: [] })) },
    statistics: [],
    origin,
    values,
  };
}

const hotels = table('hotels', [['hotel_name', 'string', 'The name of the hotel.'], ['city', 'string', 'The city the hotel is in.'], ['country', 'string', 'The country.'], ['price_per_night', 'number', 'Price of one night in US dollars.']],
  { city: ['Paris', 'Rome', 'Lisbon'], country: ['France', 'Italy', 'Portugal'] });
const cities = table('cities', [['city', 'string', 'column "city" of cities.csv'], ['population', 'integer', 'column "population" of cities.csv'], ['is_capital', 'boolean', 'column "is_capital" of cities.csv']],
  { city: ['Paris', 'Rome', 'Lisbon', 'Berlin'] }, 'imported');
const regions = table('regions', [['region_name', 'string', 'The region.'], ['country', 'string', 'The country.']], { country: ['France', 'Italy'] });
const museums = table('museums_1', [['museum_name', 'string', 'The museum.'], ['city', 'string', 'The city.'], ['visitors', 'integer', 'Visitors a year.']], { city: ['Tokyo', 'Rome'] });

const link = (from: string, column: string, to: string, otherColumn: string, containment = 1, otherUniqueness = 1): TableLink =>
  ({ table: from, column, otherTable: to, otherColumn, containment, otherUniqueness, sharedValues: 3 });

function catalog(tables: Array<ReturnType<typeof table>>, links: TableLink[]): TableCatalog & { lookups: string[][] } {
  const lookups: string[][] = [];
  return {
    lookups,
    tables: async () => tables,
    links: async (names) => links.filter((candidate) => names.includes(candidate.table) || names.includes(candidate.otherTable)),
    findValues: async (phrases) => {
      lookups.push(phrases);
      return tables.flatMap((candidate) => Object.entries(candidate.values).flatMap(([column, values]) =>
        values.map((value) => value.toLowerCase()).filter((value) => phrases.includes(value)).map((phrase) => ({ table: candidate.name, column, phrase }))));
    },
  };
}

const links = [link('hotels', 'city', 'cities', 'city'), link('hotels', 'country', 'regions', 'country', 1, 0.5), link('museums_1', 'city', 'cities', 'city', 0.5)];
const names = async (question: string, tables = [hotels, cities, regions, museums], withLinks = links) =>
  (await chooseTables({ question, catalog: catalog(tables, withLinks) })).tables.map((chosen) => chosen.name);

describe('chooseTables', () => {
  it('answers a question about one table from that table alone', async () => {
    expect(await names('How many hotels are in Lisbon?')).toEqual(['hotels']);
    expect(await names('What is the population of Berlin?')).toEqual(['cities']);
  });

  it('joins the reference table when the question needs one of its columns, through the measured link', async () => {
    const choice = await chooseTables({ question: 'What is the average price per night of hotels in cities with a population over 1 million?', catalog: catalog([hotels, cities, regions, museums], links) });
    expect(choice.tables.map((chosen) => chosen.name).sort()).toEqual(['cities', 'hotels']);
    expect(choice.joins).toEqual([links[0]]);
  });

  it('does not join tables that no link connects, however well they match', async () => {
    expect((await names('How many hotels are in cities with a population over 1 million?', [hotels, cities], [])).length).toBe(1);
  });

  it('matches numbers in the question only as values, never as digits of a table name', async () => {
    const flights = table('flights_2', [['origin_city', 'string', 'The city flights leave from.']]);
    expect(await names('How many hotels are in cities with 2 stars?', [hotels, cities, flights], [link('hotels', 'city', 'cities', 'city'), link('hotels', 'city', 'flights_2', 'origin_city')])).toEqual(['hotels']);
  });

  it('takes the only table of a database without looking at the question, and says how to go on when nothing matches', async () => {
    const single = catalog([hotels], []);
    expect((await chooseTables({ question: 'anything at all', catalog: single })).tables.map((chosen) => chosen.name)).toEqual(['hotels']);
    expect(single.lookups).toEqual([]);
    await expect(chooseTables({ question: 'How many?', catalog: catalog([hotels, cities], links) })).rejects.toThrow(/no table matches the words of the question "How many\?"/);
    await expect(chooseTables({ question: 'How many?', catalog: catalog([], []) })).rejects.toThrow(/holds no table/);
  });
});

describe('solveTableSet', () => {
  it('adds a bridge table when the two tables a question names are joined only through it', () => {
    const hit = (table: string) => new Map([[table, { strength: 1, through: 'table name' }]]);
    const solution = solveTableSet({
      terms: [{ term: 'hotel', weight: 3, hits: hit('hotels') }, { term: 'museum', weight: 3, hits: hit('museums_1') }],
      links: [link('hotels', 'city', 'cities', 'city'), link('museums_1', 'city', 'cities', 'city')],
      candidates: ['hotels', 'museums_1', 'cities'],
    });
    expect(solution.tables.sort()).toEqual(['cities', 'hotels', 'museums_1']);
    expect(solution.joins).toHaveLength(2);
    expect(solution.coverage).toBe(1);
  });
});

describe('questionPhrases', () => {
  it('gives every run of one to four words in lower case, the form column values are stored in', () => {
    expect(questionPhrases('Hotels in Czech Republic?')).toEqual(['hotels', 'hotels in', 'hotels in czech', 'hotels in czech republic', 'in', 'in czech', 'in czech republic', 'czech', 'czech republic', 'republic']);
  });
});
