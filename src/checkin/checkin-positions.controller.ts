import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentEvent, CurrentPrincipal } from '../auth/request-context';
import { IdParam } from '../common/http/id-param';
import { filter, ListFilters } from '../common/http/list-filters';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Filters, QueryFilters } from '../common/listing/query-filters';
import {
  CheckinPositionJson,
  CheckinPositions,
  PrintRequest,
} from '../orders/checkin-seam/checkin-positions';
import { printEventOf } from '../orders/presentation/pdf-data.rules';
import { Event } from '../organizers/event.entity';
import { CheckinListsService } from './checkin-lists.service';
import { ApiPositionsOrDeltaResponse, CheckinDeltaJson, toCheckinDeltaJson } from './checkin-delta.presenter';
import { CheckinPositionsSync } from './checkin-delta.service';
import { deltaPageSize } from './delta-cursor';
import { ApiRedeemResponses } from './redeem.responses';
import { RedeemDto } from './redeem.dto';
import { RedeemOkJson } from './redeem.presenter';
import { RedeemService } from './redeem.service';
import { NoStore } from '../common/http/no-store';

/** The filters of a check-in list's positions (compat §3.21), also those of the RPC search. */
export const CHECKIN_POSITION_FILTERS = {
  ignore_status: filter.bool(
    'Also positions of orders that are not paid (or pending on lists that include pending).',
  ),
  search: filter.text(
    'Start of the secret, order code, attendee name or e-mail (3 characters at least for scanners).',
  ),
  has_checkin: filter.bool('Only positions with (`true`) or without (`false`) an entry on this list.'),
  item: filter.int('Only positions of this item.'),
  item__in: filter.ints('Only positions of these items.'),
  variation: filter.int('Only positions of this variation.'),
  variation__in: filter.ints('Only positions of these variations.'),
  order: filter.text('Only positions of the order with this code.'),
  secret: filter.text('Only the position with this secret.'),
  attendee_name: filter.text('Only positions with this attendee name (case-insensitive).'),
  order__status: filter.choice(['n', 'p', 'e', 'c'], 'Only positions of orders in this status.'),
  order__status__in: filter.text('Comma-separated order statuses.'),
};

/** `pdf_data` of a list's positions (pretix: exactly `true`, and only for credentials with `event.orders:read`). */
const LIST_PDF_DATA = {
  pdf_data: filter.bool(
    "`true`: each position carries `pdf_data` (the ticket layout's variables, as on `orderpositions/`) when the credential holds `event.orders:read`; otherwise ignored.",
  ),
};

/** The event to print `pdf_data` for, when asked for (`pdf_data=true`) by a reader of orders; else undefined. */
function printRequest(event: Event, filters: QueryFilters, reader: boolean): PrintRequest | undefined {
  return filters.raw('pdf_data') === 'true' && reader
    ? { eventId: event.id, event: printEventOf(event) }
    : undefined;
}

/** The ordering fields of a check-in list's positions (compat §3.21). */
export const CHECKIN_POSITION_ORDERING = [
  'order__code',
  'order__datetime',
  'positionid',
  'attendee_name',
  'last_checked_in',
  'order__email',
];

/**
 * `E/checkinlists/{list}/positions/`, `…/{id}/` and `…/{id or secret}/redeem/` (compat §3.21). Listing and
 * detail: `event.orders:read` or `event.orders:checkin` (check-in only: an empty page unless `search` has 3 or
 * more characters); redeem:
 * `event.orders:checkin` or `event.orders:write`.
 */
@ApiTags('checkinlists')
@NoStore()
@Controller('organizers/:organizer/events/:event/checkinlists/:list/positions')
export class CheckinPositionsController {
  constructor(
    private readonly lists: CheckinListsService,
    private readonly positions: CheckinPositions,
    private readonly redeems: RedeemService,
    private readonly sync: CheckinPositionsSync,
  ) {}

  /**
   * The list (compat §3.21) with header `X-Delta-Cursor`; with `changed_since=<cursor>` the scanners' delta since
   * that cursor instead (README "Delta sync for scanners", {@link CheckinPositionsSync}).
   */
  @Get()
  @RequirePermission('event.orders:read', 'event.orders:checkin')
  @ApiPositionsOrDeltaResponse()
  @ListFilters({
    filters: {
      ...CHECKIN_POSITION_FILTERS,
      ...LIST_PDF_DATA,
      changed_since: filter.text(
        'A cursor (`X-Delta-Cursor`, `next_cursor`): only what changed since, as a delta (README "Delta sync for scanners").',
      ),
    },
    ordering: CHECKIN_POSITION_ORDERING,
  })
  async listPositions(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('list') listId: number,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Paginated<CheckinPositionJson> | CheckinDeltaJson> {
    const size = deltaPageSize(res.req.query.page_size);
    const reader = principal.eventPermissions(event.organizerId, event.id).has('event.orders:read');
    const print = printRequest(event, filters, reader);
    const out = await this.sync.list(event, principal, listId, filters, page, size, print);
    res.setHeader('X-Delta-Cursor', out.cursor);
    if (out.kind === 'page') return out.page;
    return toCheckinDeltaJson(out.delta, out.cursor, out.more ? deltaPageUrl(res.req, out.cursor) : null);
  }

  /**
   * One position of the list, as in the list (pretix's `retrieve`): 404 unless the list, with the same filters,
   * shows it (`ignore_status=true` for any order status). Unlike the list, a scanner with only the check-in
   * permission needs no `search` here.
   */
  @Get(':id')
  @RequirePermission('event.orders:read', 'event.orders:checkin')
  @ApiOkResponse({ type: CheckinPositionJson })
  @ListFilters({ filters: { ...CHECKIN_POSITION_FILTERS, ...LIST_PDF_DATA } })
  async retrievePosition(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('list') listId: number,
    @IdParam('id') id: number,
    @Filters() filters: QueryFilters,
  ): Promise<CheckinPositionJson> {
    const scope = await this.lists.scope(undefined, event, listId);
    const reader = principal.eventPermissions(event.organizerId, event.id).has('event.orders:read');
    return this.positions.onList(scope, filters, id, printRequest(event, filters, reader));
  }

  /** Redeems a ticket (201 `ok`; 400 `error`/`incomplete`; 404 `invalid`). `untrusted_input=true`: secrets only. */
  @Post(':position/redeem')
  @HttpCode(201)
  @RequirePermission('event.orders:checkin', 'event.orders:write')
  @ApiRedeemResponses()
  @ListFilters({
    filters: { untrusted_input: filter.bool('Look the ticket up by secret only, never by position id.') },
  })
  redeemPosition(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('list') listId: number,
    @Param('position') position: string,
    @Filters() filters: QueryFilters,
    @Body() body: RedeemDto,
  ): Promise<RedeemOkJson> {
    return this.redeems.redeem(
      event,
      principal,
      listId,
      position,
      body,
      filters.bool('untrusted_input') !== true,
    );
  }
}

/** Absolute URL of the current request with `changed_since` replaced by `cursor` and `page` dropped. */
function deltaPageUrl(req: Request, cursor: string): string {
  const url = new URL(req.originalUrl, `${req.protocol}://${req.get('host') ?? 'localhost'}`);
  url.searchParams.set('changed_since', cursor);
  url.searchParams.delete('page');
  return url.toString();
}
