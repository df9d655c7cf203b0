import { byRef, ObjectRef, refIds } from '../../common/listing/object-refs';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { isDeepStrictEqual } from 'util';
import { EntityManager, In, QueryFailedError } from 'typeorm';
import { chunkByParameters } from '../../common/persistence/chunked-insert';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import { ErrorCollector, FieldErrors, invalidPk, ResourceInUse, ValidationFailed } from '../../common/errors';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { findOrNotFound } from '../../common/persistence/find';
import { setLockTimeout } from '../../common/persistence/lock-timeout';
import { uniqueAsValidation } from '../../common/persistence/unique';
import { mergeInput, WriteMode } from '../../common/persistence/write';
import { AppConfig } from '../../config/app-config';
import type { Event } from '../../organizers/event.entity';
import { productKey, QuotaLookup } from '../quotas/quota-lookup.service';
import { QuotaExceeded, QuotaReservations } from '../quotas/quota-reservations.service';
import { SalesCatalogue, SalesCatalogueRows } from '../sales/sales-catalogue.service';
import type { CreateVoucherDto } from './voucher.dto';
import { Voucher } from './voucher.entity';
import { VoucherQueries } from './voucher.queries';
import {
  applyVoucherInput,
  checkVoucherInput,
  inputOf,
  stateOf,
  VOUCHER_DEFAULTS,
  VoucherInput,
} from './voucher-input.rules';
import { toVoucherJson, VoucherJson } from './voucher.presenter';
import { VOUCHER_SEAT_MESSAGES, VoucherSeatBinding } from './voucher-seat-binding';
import { foreignKeyViolation, generateVoucherCode, needsQuotaCheck, placesHeld } from './voucher-rules';

/** Audit content type of vouchers (pretix model name). */
const CONTENT_TYPE = 'voucher';
/** Unique index deciding code races: (event_id, upper(code)). */
const CODE_INDEX = 'uq_voucher_event_code_ci';

export const DUPLICATE_CODE = 'A voucher with this code already exists.';
export const DUPLICATE_CODE_IN_REQUEST = 'Duplicate voucher code in request.';
export const QUOTA_SOLD_OUT =
  'You cannot create a voucher that blocks quota as the selected product or quota is currently sold out or completely reserved.';
export const VOUCHER_IN_USE = 'This voucher can not be deleted as it has already been used.';
/**
 * Vouchers of one event: list, detail, create, batch create, update, delete (spec "Voucher", "### Vouchers";
 * compat §3.23). Every write runs in one transaction that first bounds lock waits to `VOUCHER_LOCK_TIMEOUT_MS`:
 * a lock not had in time (quota rows, the voucher row, a code being inserted concurrently) fails with
 * PostgreSQL 55P03, which the global exception filter answers with 409 and `Retry-After` (spec "Errors").
 * Blocking vouchers reserve their places through {@link QuotaReservations} (architecture.md "Concurrency").
 * References are read through {@link SalesCatalogue}; `redeemed` and `budget_used` are written only by
 * VoucherRedemptions.
 */
@Injectable()
export class VouchersService {
  constructor(
    @InjectEntityManager() private readonly em: EntityManager,
    private readonly queries: VoucherQueries,
    private readonly config: AppConfig,
    private readonly audit: AuditLogService,
    private readonly catalogue: SalesCatalogue,
    private readonly quotaLookup: QuotaLookup,
    private readonly reservations: QuotaReservations,
    private readonly seats: VoucherSeatBinding,
  ) {}

  /**
   * One page of the event's vouchers. Filters `code` (case-insensitive), `max_usages`, `redeemed`, `item`,
   * `variation`, `quota`, `subevent` (integers), `block_quota`, `allow_ignore_quota`, `active` (booleans;
   * active = `redeemed < max_usages` and not expired), `price_mode`, `tag` (exact), `value` (decimal),
   * `search` (case-insensitive substring of code, tag or comment); 400 on malformed values. Ordering `id`
   * (default), `code`, `max_usages`, `valid_until`, `value`. Two SQL statements whatever the page size.
   */
  async list(event: Event, filters: QueryFilters, page: PageRequest): Promise<Paginated<VoucherJson>> {
    const result = await this.queries.page(this.em, event.id, filters, page);
    return new Paginated(await this.seats.present(this.em, result.items), result.total, result.page);
  }

  /** The detail answers of the vouchers `refs` names that still exist in their event, by id; two statements. */
  async details(refs: readonly ObjectRef[]): Promise<Map<number, VoucherJson>> {
    if (refs.length === 0) return new Map();
    const rows = await this.em.find(Voucher, { where: { id: In(refIds(refs)) } });
    const json = await this.seats.present(this.em, rows);
    return byRef(
      refs,
      rows.map((r, i) => ({ id: r.id, eventId: r.eventId, json: json[i] })),
    );
  }

  /** @throws NotFound for an id that is not a voucher of this event */
  async get(event: Event, id: number): Promise<VoucherJson> {
    return (await this.seats.present(this.em, [await this.load(this.em, event, id, false)]))[0];
  }

  /**
   * Creates a voucher (code generated when omitted); logs `pretix.voucher.added`. A voucher that will block
   * quota reserves `max_usages` places first.
   * @throws ValidationFailed on invalid fields, a duplicate code, or too little free quota
   */
  async create(event: Event, principal: Principal, body: CreateVoucherDto): Promise<VoucherJson> {
    return this.write((em) => this.createIn(em, event, principal, body));
  }

  /**
   * {@link create} inside the caller's transaction (the caller bounds its lock waits), for a use case that
   * creates a voucher together with its own change (the waiting list's voucher). `principal` null: the
   * scheduler. `logData` replaces the body as the data of `pretix.voucher.added`.
   * @throws ValidationFailed on invalid fields, a duplicate code, or too little free quota ({@link QUOTA_SOLD_OUT})
   */
  async createIn(
    em: EntityManager,
    event: Event,
    principal: Principal | null,
    body: CreateVoucherDto,
    logData: object = body,
  ): Promise<VoucherJson> {
    const input = this.createInput(body);
    const now = new Date();
    const refs = await this.loadReferences(em, event, [input]);
    const errors = new ErrorCollector();
    checkVoucherInput(event, input, refs, 0, errors);
    if (await this.queries.codeTaken(em, event.id, input.code, null)) errors.add('code', DUPLICATE_CODE);
    const seatId = await this.seats.bind(em, event, input, refs, null, errors, now);
    errors.throwIfAny();
    const voucher = em.create(Voucher, { eventId: event.id, redeemed: 0, budgetUsed: '0.00' });
    applyVoucherInput(voucher, input, seatId);
    if (needsQuotaCheck(null, stateOf(voucher), now)) {
      const quotaIds = (await this.quotasOf(em, event, [voucher]))[0];
      if (quotaIds.length === 0) throw ValidationFailed.nonField(QUOTA_SOLD_OUT);
      await this.reserve(em, event, principal, quotaIds, placesHeld(voucher, now));
    }
    await this.save(em, voucher);
    await this.log(em, event, principal, voucher.id, 'pretix.voucher.added', logData);
    return (await this.seats.present(em, [voucher]))[0];
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
      const refs = await this.loadReferences(em, event, inputs);
      inputs.forEach((input, i) => checkVoucherInput(event, input, refs, 0, errors[i]));
      const taken = await this.queries.takenCodes(
        em,
        event.id,
        inputs.map((input) => input.code),
      );
      const seen = new Set<string>();
      const seenSeats = new Set<string>();
      const seatIds: (number | null)[] = [];
      for (const [i, input] of inputs.entries()) {
        const key = input.code.toUpperCase();
        if (seen.has(key)) errors[i].add('code', DUPLICATE_CODE_IN_REQUEST);
        else if (taken.has(key)) errors[i].add('code', DUPLICATE_CODE);
        seen.add(key);
        const seatKey = `${input.subevent ?? 0}:${input.seat ?? ''}`;
        if (input.seat && seenSeats.has(seatKey)) errors[i].add('code', VOUCHER_SEAT_MESSAGES.twiceInRequest);
        seenSeats.add(seatKey);
        seatIds.push(await this.seats.bind(em, event, input, refs, null, errors[i], now));
      }
      throwAligned(errors);

      const vouchers = inputs.map((input, i) => {
        const voucher = em.create(Voucher, { eventId: event.id, redeemed: 0, budgetUsed: '0.00' });
        applyVoucherInput(voucher, input, seatIds[i]);
        return voucher;
      });
      const needed = new Map<number, number>();
      const blocking = vouchers.map((voucher) => needsQuotaCheck(null, stateOf(voucher), now));
      const drawsOn = await this.quotasOf(
        em,
        event,
        vouchers.filter((_v, i) => blocking[i]),
      );
      let next = 0;
      for (const [i, voucher] of vouchers.entries()) {
        if (!blocking[i]) continue;
        const quotaIds = drawsOn[next++];
        if (quotaIds.length === 0) errors[i].addNonField(QUOTA_SOLD_OUT);
        for (const id of quotaIds) needed.set(id, (needed.get(id) ?? 0) + placesHeld(voucher, now));
      }
      throwAligned(errors);
      if (needed.size > 0) {
        try {
          await this.reservations.reserve(em, { event, principal }, [...needed.keys()], needed);
        } catch (err) {
          if (!(err instanceof QuotaExceeded)) throw err;
          let k = 0;
          blocking.forEach((isBlocking, i) => {
            if (isBlocking && drawsOn[k++].includes(err.quota.id)) errors[i].addNonField(QUOTA_SOLD_OUT);
          });
          throwAligned(errors);
          throw ValidationFailed.nonField(QUOTA_SOLD_OUT);
        }
      }
      // Set-based: the vouchers in chunks below PostgreSQL's parameter limit, their log entries in one statement.
      for (const chunk of chunkByParameters(vouchers, VOUCHER_INSERT_PARAMETERS)) {
        try {
          await em.insert(Voucher, chunk as QueryDeepPartialEntity<Voucher>[]);
        } catch (err) {
          // Races lost after the checks above: a referenced object deleted, or a code taken meanwhile.
          throw raceLost(err, inputs);
        }
      }
      await this.audit.recordMany(
        em,
        principal,
        vouchers.map((voucher, i) => ({
          organizerId: event.organizerId,
          eventId: event.id,
          contentType: CONTENT_TYPE,
          objectId: voucher.id,
          action: 'pretix.voucher.added',
          data: { ...bodies[i] },
        })),
      );
      return this.seats.present(em, vouchers);
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
      const [before] = await this.seats.present(em, [voucher]);
      const previous = { ...stateOf(voucher) };
      const base: VoucherInput =
        mode === 'patch' ? inputOf(before) : { ...VOUCHER_DEFAULTS, code: voucher.code };
      const input = mergeInput(body, base);
      const refs = await this.loadReferences(em, event, [input]);
      const errors = new ErrorCollector();
      checkVoucherInput(event, input, refs, voucher.redeemed, errors);
      if (await this.queries.codeTaken(em, event.id, input.code, voucher.id))
        errors.add('code', DUPLICATE_CODE);
      const seatId = await this.seats.bind(em, event, input, refs, voucher.id, errors, now);
      errors.throwIfAny();
      applyVoucherInput(voucher, input, seatId);
      if (needsQuotaCheck(previous, stateOf(voucher), now)) {
        const quotaIds = (await this.quotasOf(em, event, [voucher]))[0];
        if (quotaIds.length === 0) throw ValidationFailed.nonField(QUOTA_SOLD_OUT);
        await this.reserve(em, event, principal, quotaIds, placesHeld(voucher, now), voucher.id);
      }
      const after = toVoucherJson(voucher, input.seat ?? null);
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
   * @throws ResourceInUse (403) when the voucher has been redeemed (compat §3.23)
   */
  async delete(event: Event, id: number, principal: Principal): Promise<void> {
    await this.write(async (em) => {
      const voucher = await this.load(em, event, id, true);
      if (voucher.redeemed > 0) throw new ResourceInUse(VOUCHER_IN_USE);
      await this.log(em, event, principal, voucher.id, 'pretix.voucher.deleted', {});
      await em.delete(Voucher, { id: voucher.id, eventId: event.id });
    });
  }

  /**
   * Runs a voucher write in a transaction whose lock waits are bounded by `VOUCHER_LOCK_TIMEOUT_MS`; a violation
   * of the case-insensitive code index (two writes with one code at once) becomes the duplicate-code 400.
   */
  private write<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return uniqueAsValidation(CODE_INDEX, 'code', DUPLICATE_CODE, () =>
      this.em.transaction(async (em) => {
        await setLockTimeout(em, this.config.voucherLockTimeoutMs);
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

  /** Items (with add-on flag), variations and quotas that the inputs reference ({@link SalesCatalogue}). */
  private loadReferences(
    em: EntityManager,
    event: Event,
    inputs: readonly VoucherInput[],
  ): Promise<SalesCatalogueRows> {
    return this.catalogue.load(em, event, {
      itemIds: inputs.map((input) => input.item),
      variationIds: inputs.map((input) => input.variation),
      quotaIds: inputs.map((input) => input.quota),
      subeventIds: inputs.map((input) => input.subevent),
    });
  }

  /**
   * Quotas each blocking voucher draws on: its quota, or the quotas of its item/variation (and sub-event); one
   * statement for all of them.
   */
  private async quotasOf(em: EntityManager, event: Event, vouchers: readonly Voucher[]): Promise<number[][]> {
    const products = vouchers.map((v) =>
      v.quotaId === null && v.itemId !== null
        ? { itemId: v.itemId, variationId: v.variationId, subeventId: v.subeventId }
        : null,
    );
    const byProduct = await this.quotaLookup.forProducts(
      em,
      event.id,
      products.filter((p) => p !== null),
    );
    return vouchers.map((v, i) => {
      if (v.quotaId !== null) return [v.quotaId];
      const product = products[i];
      return product === null ? [] : (byProduct.get(productKey(product)) ?? []);
    });
  }

  /**
   * Reserves `places` on every quota (locked in id order by {@link QuotaReservations}); the voucher being
   * edited does not count against itself.
   * @throws ValidationFailed (non-field) when a quota has too few free places or is closed
   */
  private async reserve(
    em: EntityManager,
    event: Event,
    principal: Principal | null,
    quotaIds: number[],
    places: number,
    excludeVoucherId?: number,
  ): Promise<void> {
    try {
      await this.reservations.reserve(em, { event, principal }, quotaIds, places, { excludeVoucherId });
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
    principal: Principal | null,
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
/** Bind parameters one voucher row may take in a multi-row insert (its columns, with room to spare). */
const VOUCHER_INSERT_PARAMETERS = 40;

/**
 * The aligned 400 for a batch insert that lost a race after its checks: the entry whose code was taken meanwhile
 * (`{"code": [...]}`) or whose reference was deleted meanwhile (`{"<field>": ["Invalid pk ..."]}`); the error itself
 * when it is neither.
 */
function raceLost(err: unknown, inputs: { code: string }[]): unknown {
  const fk = foreignKeyViolation(err);
  const detail =
    (err instanceof QueryFailedError ? (err.driverError as { detail?: string }).detail : '') ?? '';
  if (fk) {
    const entry: FieldErrors = { [fk.field]: [invalidPk(fk.id)] };
    const at = inputs.findIndex((input) => String((input as Record<string, unknown>)[fk.field]) === fk.id);
    return aligned(inputs.map((_input, j) => (j === Math.max(0, at) ? entry : {})));
  }
  if (isCodeConflict(err)) {
    const taken = /=\(\d+, ([^)]*)\)/.exec(detail)?.[1]?.toUpperCase();
    const at = inputs.findIndex((input) => input.code.toUpperCase() === taken);
    const entry: FieldErrors = { code: [DUPLICATE_CODE] };
    return aligned(inputs.map((_input, j) => (j === Math.max(0, at) ? entry : {})));
  }
  return err;
}

function isCodeConflict(err: unknown): boolean {
  if (!(err instanceof QueryFailedError)) return false;
  const driver = err.driverError as { code?: string; constraint?: string };
  return driver.code === '23505' && driver.constraint === CODE_INDEX;
}
