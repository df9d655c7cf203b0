import { Inject, Injectable } from '@nestjs/common';
import { randomString } from '../common/values/random';
import { InjectDataSource } from '@nestjs/typeorm';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { AuditLogService } from '../audit/audit-log.service';
import type { Principal } from '../auth/principal';
import {
  lockQuotas,
  QUOTA_AVAILABILITY,
  QuotaAvailability,
  quotasForProduct,
} from '../catalogue/quotas/quota-availability';
import {
  noQuotaMessage,
  QuotaExceeded,
  quotaExceededMessage,
  QuotaReservations,
} from '../catalogue/quotas/quota-reservations.service';
import { FieldErrors, invalidPk, NotFound, ValidationFailed } from '../common/errors';
import { applyOrdering } from '../common/listing/ordering';
import { PageRequest, Paginated, paginate } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { toFieldErrors } from '../common/validation/validation.pipe';
import { parseDateTime } from '../common/values/datetime';
import { i18nText, I18nString } from '../common/values/i18n';
import { toMoney } from '../common/values/money';
import type { Event } from '../organizers/event.entity';
import { validateAnswers, ValidatedAnswer } from './answers';
import { CartPosition } from './cart-position.entity';
import {
  API_CART_SUFFIX,
  CartPositionBulkJson,
  CartPositionResultJson,
  CreateCartPositionDto,
  CreatedCartPositionJson,
  jsonTypeName,
} from './cart-position.dto';
import { OrderPresentation } from './order-presentation.service';
import { CartPositionJson } from './order.presenter';
import { QuestionAnswer } from './question-answer.entity';
import { CART_VOUCHER_MESSAGES, voucherProblem, VoucherRuleInput } from './voucher-rules';

/** How long a cart position blocks quota when `expires` is not sent (pretix's `reservation_time` default). */
export const DEFAULT_RESERVATION_MINUTES = 30;
/** Length of the random part of a generated cart id (pretix: `get_random_string(48)`). */
export const CART_ID_RANDOM_LENGTH = 48;
const CART_ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Audit content type of cart positions. */
const CONTENT_TYPE = 'cartposition';

export const MESSAGES = {
  itemOtherEvent: 'The specified item does not belong to this event.',
  itemInactive: 'The specified item is not active.',
  subeventRequired: 'You need to set a subevent.',
  subeventNotAllowed: 'You cannot set a subevent for this event.',
  variationRequired: 'You should specify a variation for this item.',
  variationOtherItem: 'The specified variation does not belong to the specified item.',
  variationNotAllowed: 'You cannot specify a variation for this item.',
  nameTwice: 'Do not specify attendee_name if you specified attendee_name_parts.',
  seatUnknown: 'The specified seat does not exist.',
  voucherUnknown: 'The specified voucher does not exist.',
  deletedMeanwhile:
    'A product, variation, voucher or question of this request was deleted meanwhile. Please try again.',
} as const;

/** A random cart id `<48 letters and digits>@api` (compat §3.2), one per request. */
export function generateCartId(): string {
  return `${randomString(CART_ID_ALPHABET, CART_ID_RANDOM_LENGTH)}${API_CART_SUFFIX}`;
}

/**
 * pretix's variation rule of cart creation (compat §3.2; non_field_errors): an item with variations needs one of
 * its own, an item without variations takes none.
 * @param variationItemId the item of the sent variation, or null when none was sent
 */
export function variationProblem(
  item: { id: number; hasVariations: boolean },
  variationItemId: number | null,
): string | null {
  if (item.hasVariations) {
    if (variationItemId === null) return MESSAGES.variationRequired;
    if (variationItemId !== item.id) return MESSAGES.variationOtherItem;
    return null;
  }
  return variationItemId === null ? null : MESSAGES.variationNotAllowed;
}

/**
 * The sub-event rule (compat §3.2): series need a sub-event, other events take none. Sub-events do not exist
 * yet, so a sub-event sent for a series is an unknown id.
 */
export function subeventProblem(hasSubevents: boolean, subevent: number | null): string | null {
  if (!hasSubevents) return subevent === null ? null : MESSAGES.subeventNotAllowed;
  return subevent === null ? MESSAGES.subeventRequired : invalidPk(subevent);
}

/** One entry's claim on quotas. */
export interface QuotaClaim {
  quotaIds: readonly number[];
}

/** Why an entry was refused while allocating: a quota without a free place, or the further check's answer. */
export type Allocation<T> = { quotaId: number } | { refused: T } | null;

/**
 * Hands out free places to entries in input order (pretix's bulk create): an entry fits when each of its quotas
 * (in id order) still has a place (`null` = unlimited; closed or sold-out quotas have 0) and `check` accepts it
 * (voucher usage); then its places are taken. Later entries get what is left.
 * @param left free places per quota id; updated in place
 * @returns per entry null (fits), the first quota lacking a place, or the check's refusal
 */
export function allocateQuotas<T>(
  claims: readonly (QuotaClaim | null)[],
  left: Map<number, number | null>,
  check: (index: number) => T | null,
): (Allocation<T> | undefined)[] {
  return claims.map((claim, index) => {
    if (!claim) return undefined;
    const ids = [...new Set(claim.quotaIds)].sort((a, b) => a - b);
    const lacking = ids.find((id) => {
      const free = left.get(id);
      return free !== null && (free === undefined || free < 1);
    });
    if (lacking !== undefined) return { quotaId: lacking };
    const refused = check(index);
    if (refused !== null) return { refused };
    for (const id of ids) {
      const free = left.get(id);
      if (free !== null && free !== undefined) left.set(id, free - 1);
    }
    return null;
  });
}

interface ItemRow {
  id: number;
  event_id: number;
  organizer_id: number;
  active: boolean;
  has_variations: boolean;
  name: I18nString;
}

interface VariationRow {
  id: number;
  item_id: number;
  organizer_id: number;
}

interface VoucherRow {
  id: number;
  code: string;
  item_id: number | null;
  variation_id: number | null;
  quota_id: number | null;
  subevent_id: number | null;
  valid_until: Date | null;
  max_usages: number;
  redeemed: number;
  block_quota: boolean;
  allow_ignore_quota: boolean;
}

/** A validated entry, ready to reserve and insert. */
interface Draft {
  input: CreateCartPositionDto;
  itemId: number;
  variationId: number | null;
  subeventId: null;
  voucher: VoucherRow | null;
  /** Quotas the position draws on; empty when its voucher ignores or blocks quota. */
  quotaIds: number[];
  answers: ValidatedAnswer[];
  nameParts: Record<string, string>;
}

/** An entry's outcome of validation. */
type Prepared = { draft: Draft } | { errors: FieldErrors };

const voucherRule = (v: VoucherRow): VoucherRuleInput => ({
  itemId: v.item_id,
  variationId: v.variation_id,
  quotaId: v.quota_id,
  subeventId: v.subevent_id,
  validUntil: v.valid_until,
  maxUsages: v.max_usages,
  redeemed: v.redeemed,
});

/**
 * Cart positions of one event through the API (spec "Cart position", "### Cart positions"; compat §3.2): list,
 * detail, create, bulk create, delete. Only carts whose id ends in `@api` are visible; web shop carts answer 404.
 * Creation is pretix's experimental endpoint: the price is stored as sent, sale periods are not checked, add-ons,
 * bundles, seats and file answers are not supported. A voucher is taken by code (compat §3.2, §7.9) and counts
 * one use while the position lives: the spec says API carts do not redeem vouchers, and indeed nothing is
 * redeemed, but the position holds a use as in pretix, so `max_usages` also bounds carts.
 *
 * Writes run in one transaction: validation reads first, then the voucher rows used are locked (id order), then
 * {@link QuotaReservations} locks only the quotas involved (id order), counts and checks, then the positions and
 * their answers are inserted (architecture.md "Concurrency"). Creations and deletions are audit-logged
 * (`pretix.event.cartposition.added|deleted`; pretix itself logs nothing for carts).
 */
@Injectable()
export class CartPositionsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly reservations: QuotaReservations,
    @Inject(QUOTA_AVAILABILITY) private readonly engine: QuotaAvailability,
    private readonly presentation: OrderPresentation,
    private readonly audit: AuditLogService,
  ) {}

  /**
   * One page of the event's `@api` cart positions, expired ones included until the scheduler purges them.
   * Ordering `id` (default), `datetime`, `expires`, `cart_id`. Three SQL statements whatever the page size.
   */
  async list(event: Event, filters: QueryFilters, page: PageRequest): Promise<Paginated<CartPositionJson>> {
    const qb = this.db
      .getRepository(CartPosition)
      .createQueryBuilder('c')
      .where('c.event_id = :event', { event: event.id })
      .andWhere('c.cart_id LIKE :suffix', { suffix: `%${API_CART_SUFFIX}` });
    applyOrdering(
      qb,
      filters.all('ordering'),
      { id: 'c.id', datetime: 'c.datetime', expires: 'c.expires', cart_id: 'c.cart_id' },
      ['id'],
    );
    return paginate(qb, page, (rows) => this.presentation.carts(this.db.manager, rows));
  }

  /** @throws NotFound for an id that is not an `@api` cart position of this event */
  async get(event: Event, id: number): Promise<CartPositionJson> {
    const position = await this.db
      .getRepository(CartPosition)
      .createQueryBuilder('c')
      .where('c.id = :id AND c.event_id = :event AND c.cart_id LIKE :suffix', {
        id,
        event: event.id,
        suffix: `%${API_CART_SUFFIX}`,
      })
      .getOne();
    if (!position) throw new NotFound();
    return (await this.presentation.carts(this.db.manager, [position]))[0];
  }

  /**
   * Deletes an `@api` cart position; its add-ons and answers go with it (foreign keys cascade), so its places
   * are free at once. Logs `pretix.event.cartposition.deleted`.
   * @throws NotFound for an id that is not an `@api` cart position of this event
   */
  async delete(event: Event, id: number, principal: Principal): Promise<void> {
    await this.db.transaction(async (em) => {
      const rows: { id: number; cart_id: string }[] = await em.query(
        `WITH gone AS (
           DELETE FROM cart_position WHERE id = $1 AND event_id = $2 AND cart_id LIKE $3 RETURNING id, cart_id
         )
         SELECT id, cart_id FROM gone`,
        [id, event.id, `%${API_CART_SUFFIX}`],
      );
      if (rows.length === 0) throw new NotFound();
      await this.log(em, event, principal, id, 'pretix.event.cartposition.deleted', {
        cart_id: rows[0].cart_id,
      });
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
    const positions = await this.write(async (em) => {
      const now = new Date();
      const [prepared] = await this.prepare(em, event, [body], now);
      if ('errors' in prepared) throw new ValidationFailed(prepared.errors);
      const { draft } = prepared;
      const usage = await this.lockVouchers(em, [draft], now);
      if (draft.quotaIds.length > 0) {
        try {
          await this.reservations.reserve(em, principal, draft.quotaIds, 1);
        } catch (err) {
          if (err instanceof QuotaExceeded) throw ValidationFailed.bare(quotaExceededMessage(err.quota.name));
          throw err;
        }
      }
      const voucherError = this.voucherUse(draft, usage, now);
      if (voucherError) throw ValidationFailed.field('voucher', voucherError);
      return this.insert(em, event, principal, [draft], generateCartId(), now);
    });
    return (await this.presentCreated(positions))[0];
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
    const bodies: (CreateCartPositionDto | FieldErrors)[] = [];
    for (const entry of raw) bodies.push(await parseEntry(entry));
    const { results, positions } = await this.write(async (em) => {
      const now = new Date();
      const valid = bodies.filter((b): b is CreateCartPositionDto => b instanceof CreateCartPositionDto);
      const preparedValid = await this.prepare(em, event, valid, now);
      let next = 0;
      const prepared: Prepared[] = bodies.map((b) =>
        b instanceof CreateCartPositionDto ? preparedValid[next++] : { errors: b },
      );
      const drafts = prepared.map((p) => ('draft' in p ? p.draft : null));
      const live = drafts.filter((d): d is Draft => d !== null);
      const usage = await this.lockVouchers(em, live, now);

      const quotaIds = [...new Set(live.flatMap((d) => d.quotaIds))];
      const quotas = await lockQuotas(em, quotaIds);
      const availability = await this.engine.compute(em, quotas);
      const left = new Map<number, number | null>();
      for (const quota of quotas) {
        const a = availability.get(quota.id)!;
        left.set(quota.id, a.available ? a.available_number : 0);
      }
      const allocation = allocateQuotas(drafts, left, (i) => this.voucherUse(drafts[i]!, usage, now));

      const results: CartPositionResultJson[] = prepared.map((p, i) => {
        const outcome = allocation[i];
        if ('errors' in p) return { success: false, data: null, errors: p.errors };
        if (outcome && 'quotaId' in outcome) {
          // A quota deleted since the lookup is not locked and counts as full; its name is gone with it.
          const name = quotas.find((q) => q.id === outcome.quotaId)?.name ?? `#${outcome.quotaId}`;
          return { success: false, data: null, errors: { non_field_errors: [quotaExceededMessage(name)] } };
        }
        if (outcome && 'refused' in outcome) {
          return { success: false, data: null, errors: { voucher: [outcome.refused] } };
        }
        return { success: true, data: null, errors: null };
      });

      const accepted = drafts.filter((d, i): d is Draft => d !== null && results[i].success);
      const needed = new Map<number, number>();
      for (const d of accepted) for (const id of d.quotaIds) needed.set(id, (needed.get(id) ?? 0) + 1);
      // The places were counted under these very locks; this pass closes quotas the request sells out.
      if (needed.size > 0) await this.reservations.reserve(em, principal, [...needed.keys()], needed);

      return { results, positions: await this.insert(em, event, principal, accepted, generateCartId(), now) };
    });
    const created = await this.presentCreated(positions);
    let k = 0;
    for (const result of results) if (result.success) result.data = created[k++];
    return { results };
  }

  /**
   * Presents created positions with their (empty) `addons` and `bundled`, after the commit so that the quota
   * locks are not held for it (one statement for the answers).
   */
  private async presentCreated(positions: CartPosition[]): Promise<CreatedCartPositionJson[]> {
    const presented = await this.presentation.carts(this.db.manager, positions);
    return presented.map((json) => ({ ...json, addons: [], bundled: [] }));
  }

  /**
   * Runs a write in one transaction. A referenced row deleted between the checks and the insert (foreign-key
   * violation) answers 400 instead of 500.
   */
  private async write<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction(work);
    } catch (err) {
      if (err instanceof QueryFailedError && (err.driverError as { code?: string }).code === '23503') {
        throw ValidationFailed.nonField(MESSAGES.deletedMeanwhile);
      }
      throw err;
    }
  }

  /**
   * Validates entries (field types already checked by the DTO) with a fixed number of statements for the
   * references (items, variations, vouchers, questions, quota products of vouchers), plus one quota lookup per
   * distinct product. Field errors of an entry are reported together; then only the first cross-field problem,
   * as pretix does.
   */
  private async prepare(
    em: EntityManager,
    event: Event,
    inputs: CreateCartPositionDto[],
    now: Date,
  ): Promise<Prepared[]> {
    if (inputs.length === 0) return [];
    const items = await this.loadItems(em, inputs);
    const variations = await this.loadVariations(em, inputs);
    const vouchers = await this.loadVouchers(em, event, inputs);
    const quotaProducts = await this.loadQuotaProducts(em, [...vouchers.values()]);
    const answers = await validateAnswers(
      em,
      event.id,
      inputs.map((input) => input.answers),
    );
    const quotaCache = new Map<string, number[]>();

    const out: Prepared[] = [];
    for (const [i, input] of inputs.entries()) {
      const fields: Record<string, string[] | FieldErrors[]> = {};
      const item = items.get(input.item);
      if (!item || item.organizer_id !== event.organizerId) fields.item = [invalidPk(input.item)];
      else if (item.event_id !== event.id) fields.item = [MESSAGES.itemOtherEvent];
      else if (!item.active) fields.item = [MESSAGES.itemInactive];
      const variationId = input.variation ?? null;
      const variation = variationId === null ? null : variations.get(variationId);
      if (variationId !== null && (!variation || variation.organizer_id !== event.organizerId)) {
        fields.variation = [invalidPk(variationId)];
      }
      const subevent = subeventProblem(event.hasSubevents, input.subevent ?? null);
      if (subevent) fields.subevent = [subevent];
      if (answers.errors[i]) fields.answers = answers.errors[i]!;
      if (Object.keys(fields).length > 0 || !item) {
        out.push({ errors: fields });
        continue;
      }

      const fail = (field: string, message: string) => out.push({ errors: { [field]: [message] } });
      const variationError = variationProblem(
        { id: item.id, hasVariations: item.has_variations },
        variation ? variation.item_id : null,
      );
      if (variationError) {
        fail('non_field_errors', variationError);
        continue;
      }
      const parts = input.attendee_name_parts ?? {};
      if (input.attendee_name && Object.keys(parts).length > 0) {
        fail('attendee_name', MESSAGES.nameTwice);
        continue;
      }
      if (input.seat) {
        fail('seat', MESSAGES.seatUnknown);
        continue;
      }
      const product = { itemId: item.id, variationId, subeventId: null };
      let voucher: VoucherRow | null = null;
      if (input.voucher) {
        voucher = vouchers.get(input.voucher.toUpperCase()) ?? null;
        if (!voucher) {
          fail('voucher', MESSAGES.voucherUnknown);
          continue;
        }
        const problem = voucherProblem(
          voucherRule(voucher),
          product,
          now,
          0,
          0,
          voucher.quota_id === null ? undefined : quotaProducts.get(voucher.quota_id),
        );
        if (problem) {
          fail('voucher', CART_VOUCHER_MESSAGES[problem]);
          continue;
        }
      }
      let quotaIds: number[] = [];
      if (!voucher || (!voucher.allow_ignore_quota && !voucher.block_quota)) {
        const key = `${item.id}/${variationId}`;
        let ids = quotaCache.get(key);
        if (!ids) quotaCache.set(key, (ids = await quotasForProduct(em, event.id, product)));
        if (ids.length === 0) {
          fail('non_field_errors', noQuotaMessage(i18nText(item.name)));
          continue;
        }
        quotaIds = ids;
      }
      out.push({
        draft: {
          input,
          itemId: item.id,
          variationId,
          subeventId: null,
          voucher,
          quotaIds,
          answers: answers.answers[i],
          nameParts: input.attendee_name ? { _legacy: input.attendee_name } : parts,
        },
      });
    }
    return out;
  }

  private async loadItems(em: EntityManager, inputs: CreateCartPositionDto[]): Promise<Map<number, ItemRow>> {
    const rows: ItemRow[] = await em.query(
      `SELECT i.id, i.event_id, e.organizer_id, i.active, i.has_variations, i.name
         FROM item i JOIN event e ON e.id = i.event_id WHERE i.id = ANY($1)`,
      [[...new Set(inputs.map((input) => input.item))]],
    );
    return new Map(rows.map((r) => [r.id, r]));
  }

  private async loadVariations(
    em: EntityManager,
    inputs: CreateCartPositionDto[],
  ): Promise<Map<number, VariationRow>> {
    const ids = [...new Set(inputs.map((input) => input.variation).filter((v): v is number => !!v))];
    if (ids.length === 0) return new Map();
    const rows: VariationRow[] = await em.query(
      `SELECT v.id, v.item_id, e.organizer_id
         FROM item_variation v JOIN item i ON i.id = v.item_id JOIN event e ON e.id = i.event_id
        WHERE v.id = ANY($1)`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** Vouchers of the event named by the inputs' codes, keyed by upper-cased code. */
  private async loadVouchers(
    em: EntityManager,
    event: Event,
    inputs: CreateCartPositionDto[],
  ): Promise<Map<string, VoucherRow>> {
    const codes = [...new Set(inputs.map((input) => input.voucher?.toUpperCase()).filter((c) => !!c))];
    if (codes.length === 0) return new Map();
    const rows = await this.voucherRows(em, 'event_id = $1 AND upper(code) = ANY($2)', [event.id, codes]);
    return new Map(rows.map((r) => [r.code.toUpperCase(), r]));
  }

  private voucherRows(
    em: EntityManager,
    where: string,
    params: unknown[],
    lock = false,
  ): Promise<VoucherRow[]> {
    return em.query(
      `SELECT id, code, item_id, variation_id, quota_id, subevent_id, valid_until, max_usages, redeemed,
              block_quota, allow_ignore_quota
         FROM voucher WHERE ${where} ORDER BY id${lock ? ' FOR UPDATE' : ''}`,
      params,
    );
  }

  /** For quota vouchers: the products of their quota (`item` and `item:variation` keys, see voucherProblem). */
  private async loadQuotaProducts(
    em: EntityManager,
    vouchers: VoucherRow[],
  ): Promise<Map<number, Set<string>>> {
    const quotaIds = [...new Set(vouchers.map((v) => v.quota_id).filter((id): id is number => id !== null))];
    const out = new Map<number, Set<string>>(quotaIds.map((id) => [id, new Set<string>()]));
    if (quotaIds.length === 0) return out;
    const rows: { quota_id: number; key: string }[] = await em.query(
      `SELECT quota_id, item_id::text AS key FROM quota_item WHERE quota_id = ANY($1)
       UNION ALL
       SELECT qv.quota_id, v.item_id || ':' || v.id FROM quota_variation qv
         JOIN item_variation v ON v.id = qv.variation_id WHERE qv.quota_id = ANY($1)`,
      [quotaIds],
    );
    for (const r of rows) out.get(r.quota_id)!.add(r.key);
    return out;
  }

  /**
   * Locks the vouchers the drafts use (id order, before any quota, like voucher updates do) and returns their
   * fresh rows with the live cart positions holding them (all carts, web shop included).
   */
  private async lockVouchers(
    em: EntityManager,
    drafts: Draft[],
    now: Date,
  ): Promise<Map<number, { voucher: VoucherRow; usedElsewhere: number; usedInRequest: number }>> {
    const ids = [...new Set(drafts.map((d) => d.voucher?.id).filter((id): id is number => id !== undefined))];
    const out = new Map<number, { voucher: VoucherRow; usedElsewhere: number; usedInRequest: number }>();
    if (ids.length === 0) return out;
    const rows = await this.voucherRows(em, 'id = ANY($1)', [ids], true);
    const counts: { voucher_id: number; n: number }[] = await em.query(
      `SELECT voucher_id, count(*)::int AS n FROM cart_position
        WHERE voucher_id = ANY($1) AND expires >= $2 GROUP BY voucher_id`,
      [ids, now],
    );
    const used = new Map(counts.map((c) => [c.voucher_id, c.n]));
    for (const voucher of rows) {
      out.set(voucher.id, { voucher, usedElsewhere: used.get(voucher.id) ?? 0, usedInRequest: 0 });
    }
    return out;
  }

  /**
   * The voucher check under the lock: one more use of the draft's voucher must fit `max_usages` beside its
   * redemptions, live carts and earlier entries of this request; the use is counted when it fits.
   * @returns the message for `{"voucher": [...]}`, or null
   */
  private voucherUse(
    draft: Draft,
    usage: Map<number, { voucher: VoucherRow; usedElsewhere: number; usedInRequest: number }>,
    now: Date,
  ): string | null {
    if (!draft.voucher) return null;
    const state = usage.get(draft.voucher.id);
    if (!state) return MESSAGES.voucherUnknown;
    // The product rules were checked before the lock; here only expiry and usage count.
    const problem = voucherProblem(
      { ...voucherRule(state.voucher), itemId: null, variationId: null, quotaId: null },
      { itemId: draft.itemId, variationId: draft.variationId, subeventId: draft.subeventId },
      now,
      state.usedElsewhere,
      state.usedInRequest + 1,
    );
    if (problem) return CART_VOUCHER_MESSAGES[problem];
    state.usedInRequest += 1;
    return null;
  }

  /** Inserts the positions (one statement) and their answers (two at most), and logs each. */
  private async insert(
    em: EntityManager,
    event: Event,
    principal: Principal,
    drafts: Draft[],
    generatedCartId: string,
    now: Date,
  ): Promise<CartPosition[]> {
    if (drafts.length === 0) return [];
    const positions = drafts.map((d) =>
      em.create(CartPosition, {
        eventId: event.id,
        cartId: d.input.cart_id ? d.input.cart_id : generatedCartId,
        datetime: now,
        expires: d.input.expires
          ? parseDateTime(d.input.expires)
          : new Date(now.getTime() + DEFAULT_RESERVATION_MINUTES * 60_000),
        itemId: d.itemId,
        variationId: d.variationId,
        price: toMoney(d.input.price),
        attendeeNameParts: d.nameParts,
        attendeeEmail: d.input.attendee_email ? d.input.attendee_email : null,
        voucherId: d.voucher?.id ?? null,
        addonToId: null,
        subeventId: d.subeventId,
        includesTax: d.input.includes_tax ?? true,
        seatId: null,
        isBundled: false,
        salesChannel: d.input.sales_channel ?? 'web',
      }),
    );
    const inserted = await em.insert(CartPosition, positions as QueryDeepPartialEntity<CartPosition>[]);
    positions.forEach((p, i) => (p.id = (inserted.identifiers[i] as { id: number }).id));

    const answers = drafts.flatMap((d, i) =>
      d.answers.map((a) => ({ position: positions[i].id, answer: a })),
    );
    if (answers.length > 0) {
      const rows = await em.insert(
        QuestionAnswer,
        answers.map((a) => ({
          cartPositionId: a.position,
          orderPositionId: null,
          questionId: a.answer.questionId,
          answer: a.answer.answer,
        })),
      );
      const links = answers.flatMap((a, i) =>
        a.answer.optionIds.map((option) => [(rows.identifiers[i] as { id: number }).id, option]),
      );
      if (links.length > 0) {
        await em.query(
          'INSERT INTO question_answer_option (answer_id, option_id) SELECT * FROM unnest($1::int[], $2::int[])',
          [links.map((l) => l[0]), links.map((l) => l[1])],
        );
      }
    }
    for (const p of positions) {
      await this.log(em, event, principal, p.id, 'pretix.event.cartposition.added', {
        cart_id: p.cartId,
        item: p.itemId,
        variation: p.variationId,
        voucher: p.voucherId,
      });
    }
    return positions;
  }

  private async log(
    em: EntityManager,
    event: Event,
    principal: Principal,
    positionId: number,
    action: string,
    data: Record<string, unknown>,
  ): Promise<void> {
    await this.audit.record(em, principal, {
      organizerId: event.organizerId,
      eventId: event.id,
      contentType: CONTENT_TYPE,
      objectId: positionId,
      action,
      data,
    });
  }
}

/**
 * Validates one entry of a bulk body like the body of a single create (class-validator, DRF messages).
 * @returns the DTO, or the entry's field errors (`{"non_field_errors": [...]}` when it is not an object)
 */
async function parseEntry(raw: unknown): Promise<CreateCartPositionDto | FieldErrors> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    const got = raw === null ? 'null' : jsonTypeName(raw);
    return { non_field_errors: [`Invalid data. Expected a dictionary, but got ${got}.`] };
  }
  const dto = plainToInstance(CreateCartPositionDto, raw);
  const problems = await validate(dto, {
    whitelist: true,
    forbidNonWhitelisted: false,
    stopAtFirstError: true,
    validationError: { target: false, value: true },
  });
  return problems.length > 0 ? toFieldErrors(problems) : dto;
}
