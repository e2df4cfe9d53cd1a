import { parseRecordSchema } from '../../core/index.ts';

/** A schema with one attribute of every kind, for the statistics tests of both engines. */
export const statisticsSchema = parseRecordSchema({
  title: 'Hotel',
  properties: {
    price: { type: 'number', unit: 'USD', description: 'Nightly rate.' },
    rooms: { type: 'integer', description: 'Number of rooms.' },
    opened_on: { type: 'string', format: 'date', description: 'Opening date.' },
    city: { type: 'string', description: 'City.' },
    has_pool: { type: 'boolean', description: 'Has a pool.' },
  },
});
