import { Injectable } from '@nestjs/common';
import { setLockTimeout } from '../../common/persistence/lock-timeout';
import { findOrNotFound } from '../../common/persistence/find';
import { InjectDataSource } from '@nestjs/typeorm';
import { isDeepStrictEqual } from 'util';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import { ErrorCollector, FieldErrors, invalidPk, Refused, ValidationFailed } from '../../common/errors';
import { applyOrdering } from '../../common/listing/ordering';
import { PageRequest, Paginated, paginate } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { uniqueAsValidation } from '../../common/persistence/unique';
import { Complete, mergeInput, WriteMode } from '../../common/persistence/write';
import { parseDateTimeOrNull } from '../../common/values/datetime';
import { moneyOrNull, toMoney } from '../../common/values/money';
import type { Event } from '../../organizers/event.entity';
import { quotasForProduct } from '../quotas/quota-availability';
import { QuotaExceeded, QuotaReservations } from '../quotas/quota-reservations.service';
import type { CreateVoucherDto } from './voucher.dto';
import { Voucher } from './voucher.entity';
import { toVoucherJson, VoucherJson } from './voucher.presenter';
import {
  BlockingState,
  foreignKeyViolation,
  generateVoucherCode,
  needsQuotaCheck,
  placesHeld,
  VoucherTarget,
} from './voucher-rules';

/** The merged input a write applies: every writable field, `code` generated when it was not sent. */
export type VoucherInput = Complete<CreateVoucherDto>;

/** Defaults of optional voucher fields (compat §3.23); PUT resets omitted ones to these (`code` excepted). */
const VOUCHER_DEFAULTS: Omit<VoucherInput, 'code'> = {
  max_usages: 1,
  min_usages: 1,
  valid_until: null,
  block_quota: false,
  allow_ignore_quota: false,
  price_mode: 'none',
  value: '0.00',
  item: null,
  variation: null,
  quota: null,
  seat: null,
  tag: '',
  comment: '',
  subevent: null,
  show_hidden_items: true,
  all_addons_included: false,
  all_bundles_included: false,
  budget: null,
};

/** Audit content type of vouchers (pretix model name). */
const CONTENT_TYPE = 'voucher';
/** Unique index deciding code races: (event_id, upper(code)). */
const CODE_INDEX = 'uq_voucher_event_code_ci';

export const DUPLICATE_CODE = 'A voucher with this code already exists.';
export const DUPLICATE_CODE_IN_REQUEST = 'Duplicate voucher code in request.';
export const QUOTA_SOLD_OUT =
  'You cannot create a voucher that blocks quota as the selected product or quota is currently sold out or completely reserved.';
export const VOUCHER_IN_USE = 'This voucher can not be deleted as it has already been used.';
const NEEDS_TARGET = 'You need to select a specific product or quota if this voucher should reserve tickets.';
const NEEDS_DATE = 'If you want this voucher to block quota, you need to select a specific date.';
const VARIATION_WITHOUT_ITEM =
  'You cannot select a variation without having selected a product that provides variations.';

/** Referenced objects of the event, loaded in bulk for one or many inputs. */
interface References {
  items: Map<number, { hasVariations: boolean; isAddon: boolean }>;
  variations: Map<number, { itemId: number }>;
  quotas: Set<number>;
}

/**
 * Vouchers of one event: list, detail, create, batch create, update, delete (spec "Voucher", "### Vouchers";
 * compat §3.23). Every write runs in one transaction that first bounds lock waits to {@link lockTimeoutMs}:
 * a lock not had in time (quota rows, the voucher row, a code being inserted concurrently) fails with
 * PostgreSQL 55P03, which the global exception filter answers with 409 and `Retry-After` (spec "Errors").
 * Blocking vouchers reserve their places through {@link QuotaReservations} (architecture.md "Concurrency").
 */
@Injectable()
export class VouchersService {
  /**
   * Longest wait for a lock inside a voucher write, in milliseconds (`SET LOCAL lock_timeout`). An internal
   * knob: tests shorten it to provoke the 409 quickly.
   */
  lockTimeoutMs = 3000;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly audit: AuditLogService,
    private readonly reservations: QuotaReservations,
  ) {}

  /**
   * One page of the event's vouchers. Filters `code` (case-insensitive), `max_usages`, `redeemed`, `item`,
   * `variation`, `quota`, `subevent` (integers), `block_quota`, `allow_ignore_quota`, `active` (booleans;
   * active = `redeemed < max_usages` and not expired), `price_mode`, `tag` (exact), `value` (decimal),
   * `search` (case-insensitive substring of code, tag or comment); 400 on malformed values. Ordering `id`
   * (default), `code`, `max_usages`, `valid_until`, `value`. Two SQL statements whatever the page size.
   */
  async list(event: Event, filters: QueryFilters, page: PageRequest): Promise<Paginated<VoucherJson>> {
    const qb = this.db
      .getRepository(Voucher)
      .createQueryBuilder('v')
      .where('v.event_id = :event', { event: event.id });
    const code = filters.str('code');
    if (code !== undefined) qb.andWhere('upper(v.code) = upper(:code)', { code });
    for (const [param, column] of [
      ['max_usages', 'max_usages'],
      ['redeemed', 'redeemed'],
      ['item', 'item_id'],
      ['variation', 'variation_id'],
      ['quota', 'quota_id'],
      ['subevent', 'subevent_id'],
    ] as const) {
      const value = filters.int(param);
      if (value !== undefined) qb.andWhere(`v.${column} = :${param}`, { [param]: value });
    }
    for (const param of ['block_quota', 'allow_ignore_quota'] as const) {
      const value = filters.bool(param);
      if (value !== undefined) qb.andWhere(`v.${param} = :${param}`, { [param]: value });
    }
    for (const param of ['price_mode', 'tag'] as const) {
      const value = filters.str(param);
      if (value !== undefined) qb.andWhere(`v.${param} = :${param}`, { [param]: value });
    }
    const value = filters.decimal('value');
    if (value !== undefined) qb.andWhere('v.value = CAST(:value AS numeric)', { value });
    const active = filters.bool('active');
    if (active !== undefined) {
      const condition = 'v.redeemed < v.max_usages AND (v.valid_until IS NULL OR v.valid_until >= :now)';
      qb.andWhere(active ? `(${condition})` : `NOT (${condition})`, { now: new Date() });
    }
    const pattern = filters.contains('search');
    if (pattern !== undefined) {
      qb.andWhere(
        '(upper(v.code) LIKE upper(:search) OR upper(v.tag) LIKE upper(:search) OR upper(v.comment) LIKE upper(:search))',
        {
          search: pattern,
        },
      );
    }
    applyOrdering(
      qb,
      filters.all('ordering'),
      {
        id: 'v.id',
        code: 'v.code',
        max_usages: 'v.max_usages',
        valid_until: 'v.valid_until',
        value: 'v.value',
      },
      ['id'],
    );
    return paginate(qb, page, (rows) => rows.map(toVoucherJson));
  }

  /** @throws NotFound for an id that is not a voucher of this event */
  async get(event: Event, id: number): Promise<VoucherJson> {
    return toVoucherJson(await this.load(this.db.manager, event, id, false));
  }

  /**
   * Creates a voucher (code generated when omitted); logs `pretix.voucher.added`. A voucher that will block
   * quota reserves `max_usages` places first.
   * @throws ValidationFailed on invalid fields, a duplicate code, or too little free quota
   */
  async create(event: Event, principal: Principal, body: CreateVoucherDto): Promise<VoucherJson> {
    const input = this.createInput(body);
    return this.write(async (em) => {
      const now = new Date();
      const refs = await this.loadReferences(em, event.id, [input]);
      const errors = new ErrorCollector();
      this.validate(event, input, refs, 0, errors);
      if (await this.codeTaken(em, event.id, input.code, null)) errors.add('code', DUPLICATE_CODE);
      errors.throwIfAny();
      const voucher = em.create(Voucher, { eventId: event.id, redeemed: 0, budgetUsed: '0.00' });
      this.apply(voucher, input);
      if (needsQuotaCheck(null, stateOf(voucher), now)) {
        const quotaIds = await this.quotasOf(em, event, voucher);
        if (quotaIds.length === 0) throw ValidationFailed.nonField(QUOTA_SOLD_OUT);
        await this.reserve(em, principal, quotaIds, placesHeld(voucher, now));
      }
      await this.save(em, voucher);
      await this.log(em, event, principal, voucher.id, 'pretix.voucher.added', body);
      return toVoucherJson(voucher);
    });
  }

  /**
   * `POST E/vouchers/batch_create/`: creates all vouchers or none (compat §3.23). Errors come as a list aligned
   * with the input (`[{}, {"code": [...]}]`): per-entry field rules, codes repeated within the request
   * (case-insensitive), codes that exist, and too little free quota (on every blocking entry drawing on the
   * exhausted quota). Blocking entries reserve their summed places per quota in one reservation.
   * Logs `pretix.voucher.added` per voucher.
   * @throws ValidationFailed with the aligned list
   */
  async batchCreate(event: Event, principal: Principal, bodies: CreateVoucherDto[]): Promise<VoucherJson[]> {
    const inputs = bodies.map((body) => this.createInput(body));
    return this.write(async (em) => {
      const now = new Date();
      const errors = inputs.map(() => new ErrorCollector());
      const refs = await this.loadReferences(em, event.id, inputs);
      inputs.forEach((input, i) => this.validate(event, input, refs, 0, errors[i]));
      const taken = await this.takenCodes(
        em,
        event.id,
        inputs.map((input) => input.code),
      );
      const seen = new Set<string>();
      inputs.forEach((input, i) => {
        const key = input.code.toUpperCase();
        if (seen.has(key)) errors[i].add('code', DUPLICATE_CODE_IN_REQUEST);
        else if (taken.has(key)) errors[i].add('code', DUPLICATE_CODE);
        seen.add(key);
      });
      throwAligned(errors);

      const vouchers = inputs.map((input) => {
        const voucher = em.create(Voucher, { eventId: event.id, redeemed: 0, budgetUsed: '0.00' });
        this.apply(voucher, input);
        return voucher;
      });
      const needed = new Map<number, number>();
      const drawsOn: number[][] = vouchers.map(() => []);
      const byProduct = new Map<string, number[]>();
      for (const [i, voucher] of vouchers.entries()) {
        if (!needsQuotaCheck(null, stateOf(voucher), now)) continue;
        const key = `${voucher.quotaId}/${voucher.itemId}/${voucher.variationId}/${voucher.subeventId}`;
        let quotaIds = byProduct.get(key);
        if (!quotaIds) byProduct.set(key, (quotaIds = await this.quotasOf(em, event, voucher)));
        if (quotaIds.length === 0) errors[i].addNonField(QUOTA_SOLD_OUT);
        drawsOn[i] = quotaIds;
        for (const id of quotaIds) needed.set(id, (needed.get(id) ?? 0) + placesHeld(voucher, now));
      }
      throwAligned(errors);
      if (needed.size > 0) {
        try {
          await this.reservations.reserve(em, principal, [...needed.keys()], needed);
        } catch (err) {
          if (!(err instanceof QuotaExceeded)) throw err;
          drawsOn.forEach((ids, i) => {
            if (ids.includes(err.quota.id)) errors[i].addNonField(QUOTA_SOLD_OUT);
          });
          throwAligned(errors);
          throw ValidationFailed.nonField(QUOTA_SOLD_OUT);
        }
      }
      for (const [i, voucher] of vouchers.entries()) {
        try {
          await this.save(em, voucher);
        } catch (err) {
          // Races lost after the checks above: a referenced object deleted, or the code taken meanwhile.
          const entry: FieldErrors | null =
            err instanceof ValidationFailed
              ? (err.errors as FieldErrors)
              : isCodeConflict(err)
                ? { code: [DUPLICATE_CODE] }
                : null;
          if (!entry) throw err;
          throw aligned(inputs.map((_input, j) => (j === i ? entry : {})));
        }
        await this.log(em, event, principal, voucher.id, 'pretix.voucher.added', bodies[i]);
      }
      return vouchers.map(toVoucherJson);
    });
  }

  /**
   * PUT (`replace`: omitted fields reset to defaults; an omitted `code` is kept) or PATCH (`patch`: only sent
   * fields change); rules are checked on the merged data against the stored `redeemed`. Free quota is checked
   * only when the voucher newly blocks, blocks elsewhere or blocks more places (see {@link needsQuotaCheck}).
   * Logs `pretix.voucher.changed` only when the wire object changed.
   * @throws NotFound for an id that is not a voucher of this event
   * @throws ValidationFailed on invalid data, a duplicate code, or too little free quota
   */
  async update(
    event: Event,
    id: number,
    principal: Principal,
    body: Partial<CreateVoucherDto>,
    mode: Exclude<WriteMode, 'create'>,
  ): Promise<VoucherJson> {
    return this.write(async (em) => {
      const now = new Date();
      const voucher = await this.load(em, event, id, true);
      const before = toVoucherJson(voucher);
      const previous = { ...stateOf(voucher) };
      const base: VoucherInput =
        mode === 'patch' ? inputOf(before) : { ...VOUCHER_DEFAULTS, code: voucher.code };
      const input = mergeInput(body, base);
      const refs = await this.loadReferences(em, event.id, [input]);
      const errors = new ErrorCollector();
      this.validate(event, input, refs, voucher.redeemed, errors);
      if (await this.codeTaken(em, event.id, input.code, voucher.id)) errors.add('code', DUPLICATE_CODE);
      errors.throwIfAny();
      this.apply(voucher, input);
      if (needsQuotaCheck(previous, stateOf(voucher), now)) {
        const quotaIds = await this.quotasOf(em, event, voucher);
        if (quotaIds.length === 0) throw ValidationFailed.nonField(QUOTA_SOLD_OUT);
        await this.reserve(em, principal, quotaIds, placesHeld(voucher, now), voucher.id);
      }
      const after = toVoucherJson(voucher);
      if (!isDeepStrictEqual(before, after)) {
        await this.save(em, voucher);
        await this.log(em, event, principal, voucher.id, 'pretix.voucher.changed', body);
      }
      return after;
    });
  }

  /**
   * Deletes a voucher; logs `pretix.voucher.deleted`.
   * @throws NotFound for an id that is not a voucher of this event
   * @throws Refused (403) when the voucher has been redeemed (compat §3.23)
   */
  async delete(event: Event, id: number, principal: Principal): Promise<void> {
    await this.write(async (em) => {
      const voucher = await this.load(em, event, id, true);
      if (voucher.redeemed > 0) throw new Refused(VOUCHER_IN_USE);
      await this.log(em, event, principal, voucher.id, 'pretix.voucher.deleted', {});
      await em.delete(Voucher, { id: voucher.id, eventId: event.id });
    });
  }

  /**
   * Runs a voucher write in a transaction whose lock waits are bounded by {@link lockTimeoutMs}; a violation
   * of the case-insensitive code index (two writes with one code at once) becomes the duplicate-code 400.
   */
  private write<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return uniqueAsValidation(CODE_INDEX, 'code', DUPLICATE_CODE, () =>
      this.db.transaction(async (em) => {
        await setLockTimeout(em, this.lockTimeoutMs);
        return work(em);
      }),
    );
  }

  private createInput(body: CreateVoucherDto): VoucherInput {
    return mergeInput(body, { ...VOUCHER_DEFAULTS, code: body.code ?? generateVoucherCode() });
  }

  private async load(em: EntityManager, event: Event, id: number, lock: boolean): Promise<Voucher> {
    return findOrNotFound(em, Voucher, { id, eventId: event.id }, lock);
  }

  /** Items (with add-on flag), variations and quotas of the event that the inputs reference; 3 statements at most. */
  private async loadReferences(
    em: EntityManager,
    eventId: number,
    inputs: readonly VoucherInput[],
  ): Promise<References> {
    const ids = (pick: (input: VoucherInput) => number | null) => [
      ...new Set(inputs.map(pick).filter((id): id is number => id !== null)),
    ];
    const refs: References = { items: new Map(), variations: new Map(), quotas: new Set() };
    const itemIds = ids((input) => input.item);
    if (itemIds.length > 0) {
      const rows: { id: number; has_variations: boolean; is_addon: boolean | null }[] = await em.query(
        `SELECT i.id, i.has_variations, c.is_addon FROM item i LEFT JOIN item_category c ON c.id = i.category_id
          WHERE i.event_id = $1 AND i.id = ANY($2)`,
        [eventId, itemIds],
      );
      for (const r of rows)
        refs.items.set(r.id, { hasVariations: r.has_variations, isAddon: r.is_addon === true });
    }
    const variationIds = ids((input) => input.variation);
    if (variationIds.length > 0) {
      const rows: { id: number; item_id: number }[] = await em.query(
        `SELECT v.id, v.item_id FROM item_variation v JOIN item i ON i.id = v.item_id
          WHERE i.event_id = $1 AND v.id = ANY($2)`,
        [eventId, variationIds],
      );
      for (const r of rows) refs.variations.set(r.id, { itemId: r.item_id });
    }
    const quotaIds = ids((input) => input.quota);
    if (quotaIds.length > 0) {
      const rows: { id: number }[] = await em.query(
        'SELECT id FROM quota WHERE event_id = $1 AND id = ANY($2)',
        [eventId, quotaIds],
      );
      for (const r of rows) refs.quotas.add(r.id);
    }
    return refs;
  }

  /**
   * Field references and cross-field rules of compat §3.23 on the merged input (everything but code uniqueness
   * and free quota). Sub-events and seats do not exist yet: only null is accepted for them.
   * @param redeemed the stored redemption count (0 on creation)
   */
  private validate(
    event: Event,
    input: VoucherInput,
    refs: References,
    redeemed: number,
    errors: ErrorCollector,
  ): void {
    const item = input.item === null ? null : refs.items.get(input.item);
    const variation = input.variation === null ? null : refs.variations.get(input.variation);
    if (input.item !== null && !item) errors.add('item', invalidPk(input.item));
    if (input.variation !== null && !variation) errors.add('variation', invalidPk(input.variation));
    if (input.quota !== null && !refs.quotas.has(input.quota)) errors.add('quota', invalidPk(input.quota));
    if (input.subevent !== null) errors.add('subevent', invalidPk(input.subevent));
    if (input.seat !== null) errors.add('seat', `The specified seat ID "${input.seat}" does not exist.`);

    if (input.item !== null && input.quota !== null) {
      errors.addNonField('You cannot select a quota and a specific product at the same time.');
    }
    if (variation && input.item === null) {
      errors.add('variation', VARIATION_WITHOUT_ITEM);
    } else if (variation && item && variation.itemId !== input.item) {
      errors.add('variation', 'This variation does not belong to this product.');
    }
    if (item?.isAddon) {
      errors.add('item', 'It is currently not possible to create vouchers for add-on products.');
    }
    if (item?.hasVariations && input.variation === null) {
      if (input.block_quota) {
        errors.add(
          'variation',
          'You can only block quota if you specify a specific product variation. Otherwise it might be unclear which quotas to block.',
        );
      } else if (input.allow_ignore_quota) {
        errors.add(
          'variation',
          'You can only use a voucher to ignore the quota of a product with variations if you select a specific variation.',
        );
      }
    }
    if (input.block_quota && input.item === null && input.quota === null) {
      errors.add('block_quota', NEEDS_TARGET);
    }
    if (input.block_quota && event.hasSubevents && input.subevent === null) {
      errors.add('subevent', NEEDS_DATE);
    }
    if (input.max_usages < redeemed) {
      errors.add(
        'max_usages',
        `This voucher has already been redeemed ${redeemed} times. You cannot reduce the maximum number of usages below this number.`,
      );
    }
    if (input.min_usages > input.max_usages) {
      errors.add(
        'min_usages',
        'The minimum number of usages may not be higher than the maximum number of usages.',
      );
    }
  }

  /** Whether another voucher of the event has this code (case-insensitive). */
  private async codeTaken(
    em: EntityManager,
    eventId: number,
    code: string,
    exceptId: number | null,
  ): Promise<boolean> {
    const rows: unknown[] = await em.query(
      'SELECT 1 FROM voucher WHERE event_id = $1 AND upper(code) = upper($2) AND ($3::int IS NULL OR id <> $3::int)',
      [eventId, code, exceptId],
    );
    return rows.length > 0;
  }

  /** The upper-cased codes among `codes` that vouchers of the event already use (one statement). */
  private async takenCodes(em: EntityManager, eventId: number, codes: string[]): Promise<Set<string>> {
    if (codes.length === 0) return new Set();
    const rows: { code: string }[] = await em.query(
      'SELECT upper(code) AS code FROM voucher WHERE event_id = $1 AND upper(code) = ANY($2)',
      [eventId, codes.map((c) => c.toUpperCase())],
    );
    return new Set(rows.map((r) => r.code));
  }

  /** Quotas a blocking voucher draws on: its quota, or the quotas of its item/variation (and sub-event). */
  private async quotasOf(em: EntityManager, event: Event, voucher: Voucher): Promise<number[]> {
    if (voucher.quotaId !== null) return [voucher.quotaId];
    if (voucher.itemId === null) return [];
    return quotasForProduct(em, event.id, {
      itemId: voucher.itemId,
      variationId: voucher.variationId,
      subeventId: voucher.subeventId,
    });
  }

  /**
   * Reserves `places` on every quota (locked in id order by {@link QuotaReservations}); the voucher being
   * edited does not count against itself.
   * @throws ValidationFailed (non-field) when a quota has too few free places or is closed
   */
  private async reserve(
    em: EntityManager,
    principal: Principal,
    quotaIds: number[],
    places: number,
    excludeVoucherId?: number,
  ): Promise<void> {
    try {
      await this.reservations.reserve(em, principal, quotaIds, places, { excludeVoucherId });
    } catch (err) {
      if (err instanceof QuotaExceeded) throw ValidationFailed.nonField(QUOTA_SOLD_OUT);
      throw err;
    }
  }

  /**
   * Saves the voucher. A referenced item, variation or quota deleted since the check (foreign-key violation)
   * becomes an `Invalid pk` error on that field.
   */
  private async save(em: EntityManager, voucher: Voucher): Promise<void> {
    try {
      await em.save(voucher);
    } catch (err) {
      const fk = err instanceof QueryFailedError ? foreignKeyViolation(err) : null;
      if (fk) throw ValidationFailed.field(fk.field, invalidPk(fk.id));
      throw err;
    }
  }

  private async log(
    em: EntityManager,
    event: Event,
    principal: Principal,
    voucherId: number,
    action: string,
    data: object,
  ): Promise<void> {
    await this.audit.record(em, principal, {
      organizerId: event.organizerId,
      eventId: event.id,
      contentType: CONTENT_TYPE,
      objectId: voucherId,
      action,
      data: { ...data },
    });
  }

  /** Writes the merged input onto the entity (`redeemed` and `budget_used` are never written here). */
  private apply(voucher: Voucher, input: VoucherInput): void {
    voucher.code = input.code;
    voucher.maxUsages = input.max_usages;
    voucher.minUsages = input.min_usages;
    voucher.validUntil = parseDateTimeOrNull(input.valid_until);
    voucher.blockQuota = input.block_quota;
    voucher.allowIgnoreQuota = input.allow_ignore_quota;
    voucher.priceMode = input.price_mode;
    voucher.value = toMoney(input.value);
    voucher.itemId = input.item;
    voucher.variationId = input.variation;
    voucher.quotaId = input.quota;
    voucher.seatId = null;
    voucher.tag = input.tag;
    voucher.comment = input.comment;
    voucher.subeventId = input.subevent;
    voucher.showHiddenItems = input.show_hidden_items;
    voucher.allAddonsIncluded = input.all_addons_included;
    voucher.allBundlesIncluded = input.all_bundles_included;
    voucher.budget = moneyOrNull(input.budget);
  }
}

/** The fields that decide whether and where a voucher blocks quota. */
function stateOf(voucher: Voucher): BlockingState & VoucherTarget {
  return {
    blockQuota: voucher.blockQuota,
    validUntil: voucher.validUntil,
    maxUsages: voucher.maxUsages,
    redeemed: voucher.redeemed,
    itemId: voucher.itemId,
    variationId: voucher.variationId,
    quotaId: voucher.quotaId,
    subeventId: voucher.subeventId,
  };
}

/** The writable fields of a wire voucher (the PATCH base). */
function inputOf(json: VoucherJson): VoucherInput {
  const { id: _id, redeemed: _r, budget_used: _b, created: _c, ...input } = json;
  return input;
}

/** 400 whose body is a list of per-entry errors aligned with a batch (compat §1.5, §3.23: `[{}, {"code": [...]}]`). */
function aligned(entries: FieldErrors[]): ValidationFailed {
  return new ValidationFailed(entries);
}

/** Throws the per-entry errors of a batch as an aligned list when any entry has one. */
function throwAligned(errors: ErrorCollector[]): void {
  if (errors.every((e) => e.empty)) return;
  throw aligned(errors.map((e) => e.toJSON()));
}

/** A violation of the case-insensitive code index (a concurrent write took the code). */
function isCodeConflict(err: unknown): boolean {
  if (!(err instanceof QueryFailedError)) return false;
  const driver = err.driverError as { code?: string; constraint?: string };
  return driver.code === '23505' && driver.constraint === CODE_INDEX;
}
