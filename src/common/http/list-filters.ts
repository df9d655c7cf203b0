import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { LIMITS } from '../../config/limits';
import { MAX_FILTER_LENGTH } from '../listing/query-filters';

/** How one query parameter is documented: its schema, serialization and a one-line description. */
export interface QueryParamDoc {
  schema: SchemaObject;
  description: string;
  style?: 'form' | 'deepObject';
  explode?: boolean;
}

/**
 * The query parameters a route reads through `QueryFilters`, documented once here and checked against what the
 * route really reads (test/documented-filters.e2e-spec.ts).
 */
export interface ListFiltersSpec {
  /** Filter name -> documentation (build with {@link filter}). */
  filters?: Record<string, QueryParamDoc>;
  /** Field names accepted by `?ordering=` (as passed to `applyOrdering`). */
  ordering?: readonly string[];
  /** Names accepted by `?expand=`. */
  expand?: readonly string[];
}

/** Builders of {@link QueryParamDoc}s, one per `QueryFilters` accessor. */
export const filter = {
  /** A text value (`QueryFilters.str` / `contains`), at most 200 characters. */
  text: (description: string): QueryParamDoc => ({
    schema: { type: 'string', maxLength: MAX_FILTER_LENGTH },
    description,
  }),
  /** One of fixed values. */
  choice: (values: readonly string[], description: string): QueryParamDoc => ({
    schema: { type: 'string', enum: [...values] },
    description,
  }),
  /** A whole number (`QueryFilters.int`), typically an id. */
  int: (description: string): QueryParamDoc => ({
    schema: { type: 'integer', format: 'int32' },
    description,
  }),
  /** Comma-separated whole numbers (`QueryFilters.intList`, `?x__in=1,2`). */
  ints: (description: string): QueryParamDoc => ({
    schema: {
      type: 'array',
      items: { type: 'integer', format: 'int32' },
      maxItems: LIMITS.filterValues,
    },
    style: 'form',
    explode: false,
    description,
  }),
  /** `true` or `false` (`QueryFilters.bool`). */
  bool: (description: string): QueryParamDoc => ({ schema: { type: 'boolean' }, description }),
  /** A decimal number as a string (`QueryFilters.decimal`, `19.00`). */
  decimal: (description: string): QueryParamDoc => ({
    schema: { type: 'string', format: 'decimal', pattern: '^-?\\d+(\\.\\d+)?$' },
    description,
  }),
  /** Bracketed keys, `?<name>[<key>]=<value>` (`QueryFilters.keyed`), e.g. `attr[type]=fair`. */
  keyed: (description: string): QueryParamDoc => ({
    schema: { type: 'object', additionalProperties: { type: 'string', maxLength: MAX_FILTER_LENGTH } },
    style: 'deepObject',
    explode: true,
    description,
  }),
  /** An ISO 8601 date and time (`QueryFilters.datetime`; URL-encode a `+` offset). */
  datetime: (description: string): QueryParamDoc => ({
    schema: { type: 'string', format: 'date-time' },
    description,
  }),
};

/** The `ordering` parameter: comma-separated field names, each optionally prefixed with `-` (descending). */
export function orderingParam(fields: readonly string[]): QueryParamDoc {
  const list = fields.map((f) => `\`${f}\``).join(', ');
  return {
    schema: {
      type: 'array',
      items: { type: 'string', enum: fields.flatMap((f) => [f, `-${f}`]) },
      maxItems: LIMITS.filterValues,
    },
    style: 'form',
    explode: false,
    description: `Sort order: comma-separated fields among ${list}; prefix \`-\` for descending.`,
  };
}

/** The `expand` parameter: repeatable (`?expand=a&expand=b`), each value one of `names`. */
export function expandParam(names: readonly string[]): QueryParamDoc {
  return {
    schema: { type: 'array', items: { type: 'string', enum: [...names] }, maxItems: LIMITS.filterValues },
    style: 'form',
    explode: true,
    description: 'Related objects to embed in full instead of by id; repeat the parameter for several.',
  };
}

/** All documented query parameters of a spec by name (filters, then `ordering` and `expand`). */
export function queryParamsOf(spec: ListFiltersSpec): Record<string, QueryParamDoc> {
  return {
    ...spec.filters,
    ...(spec.ordering ? { ordering: orderingParam(spec.ordering) } : {}),
    ...(spec.expand ? { expand: expandParam(spec.expand) } : {}),
  };
}

/**
 * Documents the query parameters a route reads (filters, `ordering`, `expand`) in the OpenAPI document, all
 * optional. The route's service reads them through `QueryFilters`; test/documented-filters.e2e-spec.ts fails
 * when it reads one this does not list.
 */
export function ListFilters(spec: ListFiltersSpec): MethodDecorator {
  return applyDecorators(
    ...Object.entries(queryParamsOf(spec)).map(([name, doc]) => ApiQuery({ name, required: false, ...doc })),
  );
}
