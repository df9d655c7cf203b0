import { Body, Controller, Get, HttpCode, Inject, Injectable, Post } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { EntityManager } from 'typeorm';
import { RequireOrganizerAccess } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentOrganizer, CurrentPrincipal } from '../auth/request-context';
import { CheckinRefused, NotFound, Refused, ValidationFailed } from '../common/errors';
import { ListFilters } from '../common/http/list-filters';
import { ApiPaginatedResponse } from '../common/http/openapi';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Filters, QueryFilters } from '../common/listing/query-filters';
import { CheckinPositionJson, CheckinPositions } from '../orders/checkin-seam/checkin-positions';
import type { Event } from '../organizers/event.entity';
import type { Organizer } from '../organizers/organizer.entity';
import { TenancyQueries } from '../organizers/tenancy.queries';
import { CheckinListsService, MIN_SCANNER_SEARCH } from './checkin-lists.service';
import { CHECKIN_POSITION_FILTERS, CHECKIN_POSITION_ORDERING } from './checkin-positions.controller';
import { ApiRedeemResponses } from './redeem.responses';
import { RpcAnnulDto, RpcRedeemDto } from './redeem.dto';
import { CheckinRecordJson } from './checkin.presenter';
import { CheckinsService } from './checkins.service';
import { CheckinQueries } from './checkin.queries';
import { AuditLogService } from '../audit/audit-log.service';
import { REASON_EXPLANATIONS } from './redeem.rules';
import { RedeemOkJson } from './redeem.presenter';
import { RedeemService } from './redeem.service';
import { NoStore } from '../common/http/no-store';
import { scanDevice } from './scan-device';
import { CHECKIN_EVENTS, type CheckinEvents } from './checkin-events.port';

/** A list as the RPC checks and uses it (with its products). */
type ListScopeWithItems = Awaited<ReturnType<CheckinListsService['scope']>>;

/** Permissions of the RPC redeem (and its batch): check-in or order write on the list's event. */
export const REDEEM = ['event.orders:checkin', 'event.orders:write'];
/** pretix's messages of the RPC (test_checkinrpc.py). */
const UNREACHABLE_LISTS = 'You requested lists that do not exist or that you do not have access to: ';
const NO_LIST = 'No check-in list passed.';
const TWO_OF_ONE_EVENT = 'Selecting two check-in lists from the same event is unsupported.';
const NO_NONCE_MATCH = 'No check-in found based on nonce';
const READ = ['event.orders:read', 'event.orders:checkin'];

/**
 * The organizer-level check-in RPC (compat §3.21): redeem a secret on one of several lists (at most one per
 * event; the ticket's event decides which), and search positions over several lists. Each list must be of the
 * organizer and its event within the credential's check-in (or order) permission (see `resolve` for the answers).
 */
@Injectable()
export class CheckinRpcService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly tenancy: TenancyQueries,
    private readonly lists: CheckinListsService,
    private readonly positions: CheckinPositions,
    private readonly redeems: RedeemService,
    private readonly checkins: CheckinsService,
    private readonly audit: AuditLogService,
    private readonly queries: CheckinQueries,
    @Inject(CHECKIN_EVENTS) private readonly events: CheckinEvents,
  ) {}

  /**
   * The lists by id with their events, checked as described on the class. A list that is not of the organizer or
   * whose event lies outside the credential's `permissions` answers 403 `You requested lists that do not exist or
   * that you do not have access to: <ids>`, as an unknown parent does everywhere (issue "pretix parity": pretix's
   * search does so; its redeem and annul answer 400 `Invalid pk` on `lists`, test_checkinrpc.py
   * `test_without_permission`, a difference the README lists). Then no list at all, or two of one event, answer 400 as
   * bare lists (`["No check-in list passed."]`, `["Selecting two check-in lists from the same event is
   * unsupported."]`) unless `anyCount` (annul, which pretix does not check).
   * @throws Refused / ValidationFailed as described
   */
  async resolve(
    organizer: Organizer,
    principal: Principal,
    ids: readonly number[],
    permissions: readonly string[],
    anyCount = false,
  ): Promise<{ listId: number; event: Event; scope: ListScopeWithItems }[]> {
    const scopes = await this.lists.scopes(undefined, ids);
    const events = new Map(
      (
        await this.tenancy.eventsByIds(
          this.db,
          organizer.id,
          [...scopes.values()].map((l) => l.eventId),
        )
      ).map((e) => [e.id, e]),
    );
    const out: { listId: number; event: Event; scope: ListScopeWithItems }[] = [];
    const unreachable: number[] = [];
    for (const id of new Set(ids)) {
      const scope = scopes.get(id);
      const event = scope ? events.get(scope.eventId) : undefined;
      if (!scope || !event || !principal.eventPermissions(organizer.id, event.id).hasAny(permissions)) {
        unreachable.push(id);
      } else {
        out.push({ listId: id, event, scope });
      }
    }
    if (unreachable.length > 0) {
      throw new Refused(`${UNREACHABLE_LISTS}${unreachable.sort((a, b) => a - b).join(', ')}`);
    }
    if (anyCount) return out;
    if (out.length === 0) throw ValidationFailed.bare(NO_LIST);
    if (new Set(out.map((o) => o.event.id)).size !== out.length)
      throw ValidationFailed.bare(TWO_OF_ONE_EVENT);
    return out;
  }

  /**
   * Redeems `secret` on the list of the event that has the ticket (secrets only, never ids).
   * @throws CheckinRefused 404 `invalid` when no list's event has it, or as {@link RedeemService.redeem}
   */
  async redeem(organizer: Organizer, principal: Principal, body: RpcRedeemDto): Promise<RedeemOkJson> {
    const lists = await this.resolve(organizer, principal, body.lists, REDEEM);
    for (const { listId, event } of lists) {
      if (await this.positions.forRedeem(this.db, event.id, body.secret, false)) {
        return this.redeems.redeem(event, principal, listId, body.secret, body, false);
      }
    }
    const first = lists[0].scope;
    throw new CheckinRefused('unknown', {
      status: 'error',
      reason: 'invalid',
      reason_explanation: REASON_EXPLANATIONS.invalid,
      require_attention: false,
      list: {
        id: first.id,
        name: first.list.name,
        event: lists[0].event.slug,
        subevent: first.subeventId,
        include_pending: first.includePending,
      },
    });
  }

  /**
   * Annuls the successful check-in made with `nonce` on one of the lists (the scanner learnt that the person did
   * not enter after all): it stays in the history as unsuccessful with reason `annulled` and no longer counts
   * (inside counts, entries, quotas with `release_after_exit`). Logs `pretix.event.checkin.annulled`.
   * @throws ValidationFailed for lists as {@link redeem} (no list at all: nothing is found, as pretix)
   * @throws NotFound `No check-in found based on nonce` when no successful check-in on the lists has that nonce
   */
  async annul(organizer: Organizer, principal: Principal, body: RpcAnnulDto): Promise<CheckinRecordJson> {
    const lists = await this.resolve(organizer, principal, body.lists, REDEEM, true);
    const ids = lists.map((l) => l.listId);
    const annulled = await this.db.transaction(async (em) => {
      const row = await this.queries.lockSuccessfulByNonce(em, ids, body.nonce);
      if (!row) throw new NotFound(NO_NONCE_MATCH);
      // A failed attempt with the same nonce gives it up (one failed scan per ticket, list and nonce).
      await this.queries.releaseFailedNonce(em, row.list_id, body.nonce, row.position_id);
      const { deviceId, gateId } = scanDevice(principal);
      await this.queries.annulScan(
        em,
        row.id,
        body.error_explanation ?? REASON_EXPLANATIONS.annulled,
        deviceId,
        gateId,
      );
      const event = lists.find((l) => l.listId === row.list_id)!.event;
      await this.audit.record(em, principal, {
        organizerId: organizer.id,
        eventId: event.id,
        contentType: 'checkin',
        objectId: row.id,
        action: 'pretix.event.checkin.annulled',
        data: { checkin: row.id, position: row.position_id, list: row.list_id },
      });
      return { id: row.id, event };
    });
    this.events.committed({ kind: 'annulment', checkinId: annulled.id });
    return this.checkins.get(annulled.event, annulled.id);
  }

  /**
   * Positions any of several lists admits, as one page (with the check-ins of those lists). Lists of events where
   * the credential cannot read orders contribute nothing unless `search` has 3 or more characters.
   */
  async search(
    organizer: Organizer,
    principal: Principal,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<CheckinPositionJson>> {
    const ids = filters
      .all('list')
      .filter((raw) => /^\d{1,9}$/.test(raw))
      .map(Number);
    const lists = await this.resolve(organizer, principal, ids, READ);
    const search = filters.str('search');
    const searchable = search !== undefined && search.length >= MIN_SCANNER_SEARCH;
    const visible = lists.filter(
      ({ event }) =>
        searchable || principal.eventPermissions(organizer.id, event.id).has('event.orders:read'),
    );
    return this.positions.page(
      visible.map((l) => l.scope),
      filters,
      page,
    );
  }
}

/** `O/checkinrpc/redeem/`, `O/checkinrpc/annul/` and `O/checkinrpc/search/` (compat §3.21). */
@ApiTags('checkinrpc')
@NoStore()
@Controller('organizers/:organizer/checkinrpc')
export class CheckinRpcController {
  constructor(private readonly rpc: CheckinRpcService) {}

  /** Redeems a secret on one of the lists (201 `ok`; 400/404 as the event-level redeem). */
  @Post('redeem')
  @HttpCode(201)
  @RequireOrganizerAccess()
  @ApiRedeemResponses()
  @ApiOperation({ summary: 'Redeem a ticket on one of several check-in lists' })
  redeemCheckinRpc(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Body() body: RpcRedeemDto,
  ): Promise<RedeemOkJson> {
    return this.rpc.redeem(organizer, principal, body);
  }

  /** Annuls the successful check-in made with a nonce (200 with the scan as the history shows it). */
  @Post('annul')
  @HttpCode(200)
  @RequireOrganizerAccess()
  @ApiOkResponse({ type: CheckinRecordJson })
  createAnnul(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Body() body: RpcAnnulDto,
  ): Promise<CheckinRecordJson> {
    return this.rpc.annul(organizer, principal, body);
  }

  @Get('search')
  @RequireOrganizerAccess()
  @ApiPaginatedResponse(CheckinPositionJson)
  @ListFilters({
    filters: {
      list: {
        schema: { type: 'array', items: { type: 'integer', format: 'int32' } },
        description: 'Check-in list ids (repeatable; one per event).',
      },
      ...CHECKIN_POSITION_FILTERS,
    },
    ordering: CHECKIN_POSITION_ORDERING,
  })
  @ApiOperation({ summary: 'Search the positions of several check-in lists' })
  searchCheckinRpc(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<CheckinPositionJson>> {
    return this.rpc.search(organizer, principal, filters, page);
  }
}
