import { Injectable } from '@nestjs/common';
import { SalesChannelDirectory } from '../../organizers/sales-channels/sales-channel-directory.queries';
import { InjectEntityManager, InjectRepository } from '@nestjs/typeorm';
import { EntityManager, QueryFailedError, Repository } from 'typeorm';
import type { Principal } from '../../auth/principal';
import { QuotaLookup } from '../../catalogue/quotas/quota-lookup.service';
import {
  QuotaExceeded,
  quotaExceededMessage,
  QuotaReservations,
} from '../../catalogue/quotas/quota-reservations.service';
import { SalesCatalogue } from '../../catalogue/sales/sales-catalogue.service';
import { addonEntry, CartAddons } from './cart-addons';
import { VoucherRedemptions } from '../../catalogue/vouchers/voucher-redemptions.service';
import { FieldErrors, NotFound, ValidationFailed } from '../../common/errors';
import { applyOrdering } from '../../common/listing/ordering';
import { findOneInOne, paginateInOne } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import type { Event } from '../../organizers/event.entity';
import { loadCheckedAnswers } from '../answers/answers-check';
import { CartPosition } from './cart-position.entity';
import { CartPositionQueries } from './cart-position.queries';
import {
  API_CART_SUFFIX,
  CartPositionBulkJson,
  CartPositionResultJson,
  CreateCartPositionDto,
  CreatedCartPositionJson,
} from './cart-position.dto';
import {
  allocateQuotas,
  assignQuotas,
  CartDraft,
  cartPositionValues,
  checkEntry,
  DELETED_MEANWHILE,
  generateCartId,
  itemNameOf,
  parseEntry,
  Prepared,
  quotaDrawingProducts,
  takeVoucherUse,
  VoucherTally,
} from './cart-positions.rules';
import { CartActor, CartWriter } from './cart-writer';
import { withOneConnection } from '../../common/persistence/one-connection';
import { OrderPresentation } from '../presentation/order-presentation.service';
import { CartPositionJson, toCartPositionJson } from '../presentation/cart-position.presenter';
import { placesPerQuota } from '../writing/sales.rules';
import { SeatHolds } from '../seats/seat-holds';
import { resolveSeats } from '../seats/seat.rules';
import { isSeatIndexViolation, SEAT_TAKEN_MEANWHILE } from '../seats/seat-taken';

/** Our message for add-ons in a bulk entry (pretix supports them there; we only in the single create). */
export const BULK_ADDONS_UNSUPPORTED =
  'Add-on products are not supported by bulk_create; create this position with POST …/cartpositions/.';

/** Positions just inserted, and the ids of those written with answers. */
interface Created {
  positions: CartPosition[];
  answered: number[];
}

/**
 * Cart positions of one event through the API (spec "Cart position", "### Cart positions"; compat §3.2): list,
 * detail, create, bulk create, delete. Only carts whose id ends in `@api` are visible; web shop carts answer 404.
 * Creation is pretix's experimental endpoint: the price is stored as sent, sale periods are not checked, bundles
 * and file answers are not supported; add-ons are created by the single create ({@link CartAddons}). A seated product takes a seat by guid (locked after the vouchers,
 * before the quotas). A voucher is taken by code (compat §3.2, §7.9) and counts
 * one use while the position lives: the spec says API carts do not redeem vouchers, and indeed nothing is
 * redeemed, but the position holds a use as in pretix, so `max_usages` also bounds carts.
 *
 * Writes run in one transaction: validation reads first ({@link checkEntry}), then the voucher rows used are
 * locked (id order, {@link VoucherRedemptions}), then {@link QuotaReservations} locks only the quotas involved
 * (id order), counts and checks, then {@link CartWriter} inserts the positions and their answers
 * (architecture.md "Concurrency").
 */
@Injectable()
export class CartPositionsService {
  constructor(
    @InjectEntityManager() private readonly em: EntityManager,
    @InjectRepository(CartPosition) private readonly positions: Repository<CartPosition>,
    private readonly catalogue: SalesCatalogue,
    private readonly quotaLookup: QuotaLookup,
    private readonly reservations: QuotaReservations,
    private readonly redemptions: VoucherRedemptions,
    private readonly writer: CartWriter,
    private readonly presentation: OrderPresentation,
    private readonly seatHolds: SeatHolds,
    private readonly queries: CartPositionQueries,
    private readonly addons: CartAddons,
    private readonly channels: SalesChannelDirectory,
  ) {}

  /**
   * One page of the event's `@api` cart positions, expired ones included until the scheduler purges them.
   * Ordering `id` (default), `datetime`, `expires`, `cart_id`. One SQL statement whatever the page size.
   */
  async list(event: Event, filters: QueryFilters, page: PageRequest): Promise<Paginated<CartPositionJson>> {
    const qb = this.queries.listQuery(this.em, event.id, API_CART_SUFFIX);
    applyOrdering(
      qb,
      filters,
      { id: 'c.id', datetime: 'c.datetime', expires: 'c.expires', cart_id: 'c.cart_id' },
      ['id'],
    );
    return paginateInOne(qb, page, this.presentation.cartRelated(), (c, r) =>
      toCartPositionJson(c, r.answers, r.seat),
    );
  }

  /** @throws NotFound for an id that is not an `@api` cart position of this event */
  async get(event: Event, id: number): Promise<CartPositionJson> {
    const qb = this.queries.oneQuery(this.em, event.id, id, API_CART_SUFFIX);
    return findOneInOne(qb, this.presentation.cartRelated(), (c, r) =>
      toCartPositionJson(c, r.answers, r.seat),
    );
  }

  /**
   * Deletes an `@api` cart position; its add-ons and answers go with it (foreign keys cascade), so its places
   * are free at once. Logs `pretix.event.cartposition.deleted`.
   * @throws NotFound for an id that is not an `@api` cart position of this event
   */
  async delete(event: Event, id: number, principal: Principal): Promise<void> {
    await this.em.transaction(async (em) => {
      if (!(await this.writer.delete(em, { event, principal }, id, API_CART_SUFFIX))) throw new NotFound();
    });
  }

  /**
   * Creates one cart position (201). Errors, in pretix's order: field errors (`{"item": [...]}`,
   * `{"answers": [{}, {...}]}`), then the first cross-field problem (variation, name, seat, voucher, no quota),
   * then, under the locks, lack of quota as a bare list `["There is not enough quota ..."]` and an exhausted
   * voucher `{"voucher": [...]}`.
   * @throws ValidationFailed
   */
  async create(
    event: Event,
    principal: Principal,
    body: CreateCartPositionDto,
  ): Promise<CreatedCartPositionJson> {
    const actor: CartActor = { event, principal };
    return withOneConnection(this.em, async (conn) => {
      const inserted = await this.write(conn, async (em) => {
        const now = new Date();
        const addonInputs = body.addons ?? [];
        const [prepared, ...preparedAddons] = await this.prepare(
          em,
          event,
          [body, ...addonInputs.map((a) => addonEntry(body, a))],
          now,
        );
        if ('errors' in prepared) throw new ValidationFailed(prepared.errors);
        const addonErrors = preparedAddons.map((p) => ('errors' in p ? p.errors : {}));
        if (addonErrors.some((e) => Object.keys(e).length > 0))
          throw new ValidationFailed({ addons: addonErrors });
        const { draft } = prepared;
        const addonDrafts = preparedAddons.map((p) => (p as { draft: CartDraft }).draft);
        if (body.addons !== undefined) await this.addons.check(em, event, draft, addonDrafts);
        const tally = await this.lockVouchers(em, [draft], now);
        const [seatError] = await this.takeSeats(em, event, [draft], now);
        if (seatError) throw ValidationFailed.field('seat', seatError);
        const needed = placesPerQuota([draft, ...addonDrafts].map((d) => d.quotaIds));
        if (needed.size > 0) {
          try {
            await this.reservations.reserve(em, actor, [...needed.keys()], needed);
          } catch (err) {
            if (err instanceof QuotaExceeded)
              throw ValidationFailed.bare(quotaExceededMessage(err.quota.name));
            throw err;
          }
        }
        const voucherError = takeVoucherUse(draft, tally, now);
        if (voucherError) throw ValidationFailed.field('voucher', voucherError);
        const parent = await this.insert(em, actor, [draft], now);
        if (addonDrafts.length === 0) return { parent, addons: null };
        const addons = await this.insert(em, actor, addonDrafts, now, parent.positions[0]);
        return { parent, addons };
      });
      const [json] = await this.presentCreated(conn, inserted.parent);
      if (inserted.addons)
        json.addons = await this.presentation.carts(
          conn,
          inserted.addons.positions,
          inserted.addons.answered,
        );
      return json;
    });
  }

  /**
   * `POST E/cartpositions/bulk_create/` (compat §3.2): validates every entry, then in one transaction reserves the
   * places of the valid ones in input order in one pass (a position that no longer fits gets
   * `{"non_field_errors": ["There is not enough quota ..."]}`, an exhausted voucher `{"voucher": [...]}`), and
   * creates the rest. Positions without `cart_id` share one generated id.
   * @param raw the request body, already known to be a list
   * @returns 200 body `{"results": [{"success", "data", "errors"}, ...]}` aligned with the input
   */
  async bulkCreate(event: Event, principal: Principal, raw: unknown[]): Promise<CartPositionBulkJson> {
    const actor: CartActor = { event, principal };
    const bodies: (CreateCartPositionDto | FieldErrors)[] = [];
    for (const entry of raw) {
      const parsed = await parseEntry(entry);
      // Add-ons are created by the single create only (its add-on rules and nested answer).
      const withAddons = parsed instanceof CreateCartPositionDto && (parsed.addons ?? []).length > 0;
      bodies.push(withAddons ? { addons: [BULK_ADDONS_UNSUPPORTED] } : parsed);
    }
    return withOneConnection(this.em, async (conn) => {
      const { results, inserted } = await this.write(conn, async (em) => {
        const now = new Date();
        const valid = bodies.filter((b): b is CreateCartPositionDto => b instanceof CreateCartPositionDto);
        const preparedValid = await this.prepare(em, event, valid, now);
        let next = 0;
        const prepared: Prepared[] = bodies.map((b) =>
          b instanceof CreateCartPositionDto ? preparedValid[next++] : { errors: b },
        );
        const drafts = prepared.map((p) => ('draft' in p ? p.draft : null));
        const tally = await this.lockVouchers(
          em,
          drafts.filter((d) => d !== null),
          now,
        );
        const withDraft = drafts.flatMap((d, i) => (d === null ? [] : [i]));
        const seatErrors = await this.takeSeats(
          em,
          event,
          withDraft.map((i) => drafts[i]!),
          now,
        );
        withDraft.forEach((i, k) => {
          if (seatErrors[k] === null) return;
          prepared[i] = { errors: { seat: [seatErrors[k]] } };
          drafts[i] = null;
        });
        const quotaIds = [...new Set(drafts.flatMap((d) => d?.quotaIds ?? []))];
        const counted = await this.reservations.count(em, quotaIds, { lock: true });
        const left = new Map<number, number | null>();
        for (const quota of counted.quotas) {
          const a = counted.before.get(quota.id)!;
          left.set(quota.id, a.available ? a.available_number : 0);
        }
        const allocation = allocateQuotas(drafts, left, (i) => takeVoucherUse(drafts[i]!, tally, now));

        const results: CartPositionResultJson[] = prepared.map((p, i) => {
          const outcome = allocation[i];
          if ('errors' in p) return { success: false, data: null, errors: p.errors };
          if (outcome && 'quotaId' in outcome) {
            // A quota deleted since the lookup is not locked and counts as full; its name is gone with it.
            const name = counted.quotas.find((q) => q.id === outcome.quotaId)?.name ?? `#${outcome.quotaId}`;
            return { success: false, data: null, errors: { non_field_errors: [quotaExceededMessage(name)] } };
          }
          if (outcome && 'refused' in outcome) {
            return { success: false, data: null, errors: { voucher: [outcome.refused] } };
          }
          return { success: true, data: null, errors: null };
        });

        const accepted = drafts.filter((d, i): d is CartDraft => d !== null && results[i].success);
        // The places were counted under these very locks; this closes the quotas the request sells out.
        await this.reservations.closeSoldOut(
          em,
          actor,
          counted,
          placesPerQuota(accepted.map((d) => d.quotaIds)),
        );
        return { results, inserted: await this.insert(em, actor, accepted, now) };
      });
      const created = await this.presentCreated(conn, inserted);
      let k = 0;
      for (const result of results) if (result.success) result.data = created[k++];
      return { results };
    });
  }

  /**
   * Presents created positions with their (empty) `addons` and `bundled`, after the commit so that the quota
   * locks are not held for it (two statements for the answers, none when no position was created with answers),
   * on the connection that wrote them ({@link withOneConnection}: a busy pool cannot turn a committed write into
   * a 503).
   */
  private async presentCreated(
    conn: EntityManager,
    { positions, answered }: Created,
  ): Promise<CreatedCartPositionJson[]> {
    const presented = await this.presentation.carts(conn, positions, answered);
    return presented.map((json) => ({ ...json, addons: [], bundled: [] }));
  }

  /**
   * Runs a write in one transaction. A referenced row deleted between the checks and the insert (foreign-key
   * violation) answers 400 instead of 500.
   */
  private async write<T>(conn: EntityManager, work: (em: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await conn.transaction(work);
    } catch (err) {
      if (err instanceof QueryFailedError && (err.driverError as { code?: string }).code === '23503') {
        throw ValidationFailed.nonField(DELETED_MEANWHILE);
      }
      if (isSeatIndexViolation(err)) throw ValidationFailed.field('seat', SEAT_TAKEN_MEANWHILE);
      throw err;
    }
  }

  /**
   * Validates entries with a fixed number of statements: the catalogue rows (items, variations, vouchers, quota
   * products of vouchers), the questions of the answers, and the quotas of all products.
   */
  private async prepare(
    em: EntityManager,
    event: Event,
    inputs: CreateCartPositionDto[],
    now: Date,
  ): Promise<Prepared[]> {
    if (inputs.length === 0) return [];
    const refs = await this.catalogue.load(em, event, {
      itemIds: inputs.map((input) => input.item),
      variationIds: inputs.map((input) => input.variation),
      voucherCodes: inputs.map((input) => input.voucher),
      subeventIds: inputs.map((input) => input.subevent),
    });
    const perPosition = inputs.map((input) => input.answers);
    const answers = await loadCheckedAnswers(this.catalogue, em, event, perPosition);
    const known = await this.channels.identifiers(em, event.organizerId);
    const checked = inputs.map((input, i): Prepared => {
      const entry = checkEntry(
        event,
        input,
        refs,
        { answers: answers.answers[i], errors: answers.errors[i] },
        now,
      );
      const channel = input.sales_channel;
      if (channel === undefined || channel === null || known.includes(channel)) return entry;
      // DRF's SlugRelatedField message: the organizer has no sales channel with this identifier.
      const unknown = [`Object with identifier=${channel} does not exist.`];
      return { errors: { ...('errors' in entry ? entry.errors : {}), sales_channel: unknown } };
    });
    const byProduct = await this.quotaLookup.forProducts(em, event.id, quotaDrawingProducts(checked));
    return assignQuotas(checked, byProduct, itemNameOf(refs));
  }

  /**
   * Seats of the drafts, after the vouchers and before the quotas (README "Locks"): locks the named seats (id
   * order), checks them ({@link resolveSeats}), sets each draft's `seat`, and deletes expired cart positions still
   * holding a chosen seat (the cart seat index allows one position per seat).
   * @returns per draft: null, or the message for its `seat` field
   */
  private async takeSeats(
    em: EntityManager,
    event: Event,
    drafts: CartDraft[],
    now: Date,
  ): Promise<(string | null)[]> {
    if (drafts.length === 0) return [];
    const requests = drafts.map((d) => ({
      itemId: d.product.itemId,
      subeventId: d.product.subeventId,
      guid: d.input.seat ?? null,
      voucherSeatId: d.voucher?.seatId ?? null,
    }));
    const refs = await this.seatHolds.refs(
      em,
      event,
      requests.map((r) => r.itemId),
      requests.flatMap((r) => (r.guid === null ? [] : [{ subeventId: r.subeventId, guid: r.guid }])),
      { now, lock: true, exceptVouchers: drafts.flatMap((d) => (d.voucher ? [d.voucher.id] : [])) },
    );
    const outcomes = resolveSeats(requests, refs);
    const chosen: number[] = [];
    const errors = outcomes.map((o, i) => {
      if ('error' in o) return o.error;
      drafts[i].seat = o.seat;
      if (o.seat) chosen.push(o.seat.id);
      return null;
    });
    await this.seatHolds.purgeExpiredCarts(em, chosen, now);
    return errors;
  }

  /**
   * Locks the vouchers the drafts use (id order, before any quota, like voucher updates do) and returns their
   * fresh rows with the live cart positions holding them (all carts, web shop included).
   */
  private async lockVouchers(em: EntityManager, drafts: CartDraft[], now: Date): Promise<VoucherTally> {
    const ids = drafts.map((d) => d.voucher?.id).filter((id): id is number => id !== undefined);
    const inUse = await this.redemptions.inUse(em, ids, { now, lock: true });
    return new Map([...inUse].map(([id, state]) => [id, { ...state, usedInRequest: 0 }]));
  }

  /** Inserts the drafts (add-ons of `parent` when given: its cart, `expires` and sales channel, linked to it). */
  private async insert(
    em: EntityManager,
    actor: CartActor,
    drafts: CartDraft[],
    now: Date,
    parent?: CartPosition,
  ): Promise<Created> {
    const cartId = generateCartId();
    const positions = await this.writer.insert(
      em,
      actor,
      drafts.map((d) => {
        const values = cartPositionValues(d, actor.event.id, cartId, now);
        if (parent) {
          Object.assign(values, {
            cartId: parent.cartId,
            expires: parent.expires,
            salesChannel: parent.salesChannel,
            addonToId: parent.id,
          });
        }
        return { values, answers: d.answers };
      }),
    );
    return { positions, answered: positions.filter((_, i) => drafts[i].answers.length > 0).map((p) => p.id) };
  }
}
