import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import { COMMA_SEPARATED_QUERY } from './query-style';
import type { components, operations, paths } from './schema';

export type { components, operations, paths };

/** A component schema of the API by name: `Schema<'OrderJson'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** The typed client: `client.GET('/api/v1/organizers/{organizer}/events/', {params: {path: {organizer}}})`. */
export type TicketingClient = Client<paths>;

/** Options of {@link createTicketingClient}. */
export interface TicketingClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where the API runs, without the `/api/v1` of the paths (`https://tickets.example.org`). */
  baseUrl: string;
  /** A team API token (sent as `Authorization: Token <token>`). */
  token?: string;
  /** An OAuth access token (sent as `Authorization: Bearer <token>`); used instead of `token` when both are set. */
  accessToken?: string;
}

/**
 * A typed client of the ticketing API (openapi-fetch over the generated `paths`): every call names a path of the
 * document and gets its parameters, request body and `{data, error, response}` typed from it. The credential is
 * sent on every request that does not set `Authorization` itself.
 */
export function createTicketingClient(options: TicketingClientOptions): TicketingClient {
  const { token, accessToken, ...rest } = options;
  const client = createClient<paths>({ querySerializer: serializeQuery, ...rest });
  const authorization = accessToken ? `Bearer ${accessToken}` : token ? `Token ${token}` : undefined;
  if (authorization) {
    client.use({
      onRequest({ request }) {
        if (!request.headers.has('Authorization')) request.headers.set('Authorization', authorization);
        return request;
      },
    });
  }
  return client;
}

/**
 * The query string of a call as the document describes it: lists comma-separated where a parameter says
 * `explode: false` (`ordering=-datetime,code`, `item__in=1,2`), else one pair per entry (`expand=a&expand=b`);
 * absent values (`undefined`, `null`) left out.
 */
export function serializeQuery(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  const text = (value: unknown): string => {
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw new TypeError(`unsupported query value ${JSON.stringify(value)}`);
  };
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (!Array.isArray(value)) params.append(name, text(value));
    else if (COMMA_SEPARATED_QUERY.has(name)) params.append(name, value.map(text).join(','));
    else for (const entry of value) params.append(name, text(entry));
  }
  return params.toString();
}

/**
 * The `cursor` of a list's `next` or `previous` link (README "Cursor pagination"), to pass as the `cursor` query
 * parameter of the following call; null when there is no such link (or it is a `page=` link).
 */
export function cursorOf(link: string | null | undefined): string | null {
  if (!link) return null;
  return new URL(link).searchParams.get('cursor');
}

/**
 * Every result of a list in cursor mode: calls `page('')` for the first page, then `page(cursor)` with the cursor
 * of each `next` link until there is none. Rows inserted or deleted meanwhile are never skipped or repeated.
 * `page` is one typed call, e.g.
 * `(cursor) => client.GET('/api/v1/organizers/{organizer}/events/{event}/vouchers/', {params: {path, query: {cursor, page_size: 1000}}})`.
 * @throws Error with the status and error body when a call fails
 */
export async function* allResults<T>(
  page: (cursor: string) => Promise<{
    data?: { next: string | null; results: T[] };
    error?: unknown;
    response: Response;
  }>,
): AsyncGenerator<T> {
  let cursor: string | null = '';
  while (cursor !== null) {
    const { data, error, response } = await page(cursor);
    if (data === undefined) throw new Error(`${response.status}: ${JSON.stringify(error ?? null)}`);
    yield* data.results;
    cursor = cursorOf(data.next);
  }
}

/**
 * The `ETag` of an answer (README "Sync and concurrency"): the strong tag of the resource's current
 * representation, sent by every JSON GET and by conditional writes; null when the answer has none. Send it back
 * in `params.header['If-None-Match']` (304 while unchanged) or `params.header['If-Match']` (412 when changed).
 */
export function entityTagOf(result: { response: Response }): string | null {
  return result.response.headers.get('ETag');
}

/**
 * Whether a GET sent with `If-None-Match` answered 304 Not Modified: the copy the caller holds is current (there
 * is no body: `data` and `error` carry nothing then).
 */
export function isNotModified(result: { response: Response }): boolean {
  return result.response.status === 304;
}

/**
 * Whether a write sent with `If-Match` answered 412 Precondition Failed: the resource changed since the tag was
 * read, nothing was written; {@link entityTagOf} gives the current tag (null when the resource is gone).
 */
export function isPreconditionFailed(result: { response: Response }): boolean {
  return result.response.status === 412;
}
