import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiProperty, ApiQuery, getSchemaPath } from '@nestjs/swagger';
import { CheckinPositionJson, type PositionsDelta } from '../orders/checkin-seam/checkin-positions';
import { MAX_DELTA_PAGE_SIZE } from './delta-cursor';
import { ApiCursorQuery } from '../common/http/openapi';

/** A secret blocked or unblocked since the cursor (as `E/blockedsecrets/` lists it). */
export class DeltaBlockedSecretJson {
  @ApiProperty({ type: 'string', description: 'The ticket secret.' })
  secret!: string;

  @ApiProperty({ type: 'boolean', description: 'Blocked now (`false`: unblocked since).' })
  blocked!: boolean;
}

/**
 * One page of a check-in list's delta (`?changed_since=`, README "Delta sync for scanners"): the positions changed
 * since the cursor that the list shows, as it shows them; the ids of those it no longer shows; the secrets
 * revoked or (un)blocked since (first page of a delta only); the cursor of what follows.
 */
export class CheckinDeltaJson {
  @ApiProperty({
    type: 'integer',
    description:
      'Positions changed since the cursor: in `results` or `removed`, over all pages of this delta.',
  })
  count!: number;

  @ApiProperty({
    type: 'string',
    format: 'uri',
    nullable: true,
    description:
      'URL of the next page of this delta (its `changed_since` is `next_cursor`); null on the last page.',
  })
  next!: string | null;

  @ApiProperty({
    type: 'string',
    format: 'uri',
    nullable: true,
    description: 'Always null (a delta pages forward).',
  })
  previous!: null;

  @ApiProperty({
    type: [CheckinPositionJson],
    description:
      "Positions changed since the cursor that the list (with the request's filters) shows, by id.",
  })
  results!: CheckinPositionJson[];

  @ApiProperty({
    type: 'integer',
    isArray: true,
    description: 'Ids of positions changed since the cursor that the list no longer shows: drop them.',
  })
  removed!: number[];

  @ApiProperty({
    type: 'string',
    isArray: true,
    description: 'Secrets revoked since the cursor (first page of a delta): drop them.',
  })
  revoked_secrets!: string[];

  @ApiProperty({
    type: [DeltaBlockedSecretJson],
    description: 'Secrets blocked or unblocked since the cursor (first page of a delta).',
  })
  blocked_secrets!: DeltaBlockedSecretJson[];

  @ApiProperty({
    type: 'string',
    description:
      'Pass back as `changed_since`: the next page while `next` is set, else the start of the next delta.',
  })
  next_cursor!: string;
}

/** The wire form of a delta page; `next` is the URL of the next page (null on the last one). */
export function toCheckinDeltaJson(
  delta: PositionsDelta,
  nextCursor: string,
  next: string | null,
): CheckinDeltaJson {
  return {
    count: delta.count,
    next,
    previous: null,
    results: delta.results,
    removed: delta.removed,
    revoked_secrets: delta.revoked,
    blocked_secrets: delta.blocked.map((b) => ({ secret: b.secret, blocked: b.blocked })),
    next_cursor: nextCursor,
  };
}

/** A delta-only field of the positions page: its schema, described as present with `changed_since` only. */
const deltaOnly = (description: string, schema: Record<string, unknown>) => ({
  ...schema,
  description: `With \`changed_since\` only: ${description}`,
});

/**
 * OpenAPI of a check-in list's positions page (compat §3.21): the list envelope; with `changed_since` the same
 * envelope of a {@link CheckinDeltaJson} (`count` then counts the delta's changed positions, `previous` is null)
 * plus its fields `removed`, `revoked_secrets`, `blocked_secrets`, `next_cursor`. Header `X-Delta-Cursor` always.
 */
export function ApiPositionsOrDeltaResponse() {
  return applyDecorators(
    ApiExtraModels(CheckinPositionJson, DeltaBlockedSecretJson),
    ApiQuery({
      name: 'page',
      required: false,
      schema: { type: 'integer', minimum: 1, default: 1 },
      description:
        'Page number, from 1; past the last page answers 404. Ignored with `changed_since`; not together with `cursor`.',
    }),
    ApiCursorQuery(),
    ApiQuery({
      name: 'page_size',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: MAX_DELTA_PAGE_SIZE, default: 50 },
      description: `Results per page; larger values are capped at 50 (with \`cursor\`: at 1000; with \`changed_since\`: default and cap ${MAX_DELTA_PAGE_SIZE}).`,
    }),
    ApiOkResponse({
      headers: {
        'X-Delta-Cursor': {
          schema: { type: 'string' },
          description:
            'Cursor to pass as `changed_since` later (without `changed_since`: keep the one of the first page).',
        },
      },
      schema: {
        type: 'object',
        required: ['count', 'next', 'previous', 'results'],
        properties: {
          count: {
            type: 'integer',
            nullable: true,
            description:
              'Positions listed (null on cursor pages); with `changed_since`: changed (results and removed, all pages).',
          },
          next: { type: 'string', format: 'uri', nullable: true },
          previous: { type: 'string', format: 'uri', nullable: true },
          results: { type: 'array', items: { $ref: getSchemaPath(CheckinPositionJson) } },
          removed: deltaOnly('ids of changed positions the list no longer shows: drop them.', {
            type: 'array',
            items: { type: 'integer' },
          }),
          revoked_secrets: deltaOnly('secrets revoked since the cursor (first page of a delta).', {
            type: 'array',
            items: { type: 'string' },
          }),
          blocked_secrets: deltaOnly(
            'secrets blocked or unblocked since the cursor (first page of a delta).',
            {
              type: 'array',
              items: { $ref: getSchemaPath(DeltaBlockedSecretJson) },
            },
          ),
          next_cursor: deltaOnly(
            'pass back as `changed_since`: the next page while `next` is set, else the next delta.',
            { type: 'string' },
          ),
        },
      },
    }),
  );
}
