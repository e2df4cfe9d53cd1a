import { z, type OpenAPIHono } from '@hono/zod-openapi';
import { edgeError, type HttpErrorBody } from './http-error.ts';

/** The server's app, as each route group registers its routes on it. */
export type ServeApp = OpenAPIHono;

/** `?table=`, for the requests about one table. */
export const tableQuery = z.object({ table: z.string().min(1).optional().openapi({ description: 'the table (needed when the database holds several)' }) });
export const anyJson = { content: { 'application/json': { schema: z.any() } } };
export const errorResponse = { description: '`{error: {code, message, hint, fix?}}`; the code is one of the CLI\'s, `fix` what to do as data (e.g. `{kind: "name-table", choices}`)', ...anyJson };
export const errorResponses = { 400: errorResponse, 401: errorResponse, 404: errorResponse };

/** A required JSON request body checked by `schema`. */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({ required: true, content: { 'application/json': { schema } } });

/** The body of a 404 of the server's own (`NOT_FOUND`): what is not there, and where to find what is. */
export function notFound(message: string, hint: string): HttpErrorBody {
  return edgeError('NOT_FOUND', message, hint).body;
}
