import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, QueryFailedError } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { AuditLogService } from '../audit/audit-log.service';
import type { Principal } from '../auth/principal';
import {
  noQuotaMessage,
  QuotaExceeded,
  QuotaReservations,
} from '../catalogue/quotas/quota-reservations.service';
import { Quota } from '../catalogue/quotas/quota.entity';
import { Voucher } from '../catalogue/vouchers/voucher.entity';
import { FieldErrors, invalidPk, ValidationFailed } from '../common/errors';
import { uniqueAsValidation } from '../common/persistence/unique';
import { parseDateTime } from '../common/values/datetime';
import { i18nText, I18nString } from '../common/values/i18n';
import { Decimal, toMoney } from '../common/values/money';
import { MailOutboxService } from '../mail/mail-outbox.service';
import type { Event } from '../organizers/event.entity';
import { AnswerJson, OrderJson, toOrderJson, toOrderPositionJson } from './order.presenter';
import { validateAnswers, ValidatedAnswer } from './answers';
import { InvoiceAddress } from './invoice-address.entity';
import type { CreateOrderDto, InvoiceAddressInputDto, OrderPositionInputDto } from './order.dto';
import { OrderFee } from './order-fee.entity';
import { OrderPayment } from './order-payment.entity';
import { OrderPosition } from './order-position.entity';
import { OrderPresentation } from './order-presentation.service';
import {
  budgetMessage,
  generateOrderCode,
  generateOrderSecret,
  generatePositionSecret,
  generatePseudonymizationId,
  hasValidCodeChars,
  ItemValidity,
  numberPositions,
  orderExpiry,
  ticketValidity,
} from './order-rules';
import { Order, OrderStatus } from './order.entity';
import { lineTax, listedPrice, priceAfterVoucher, TaxRuleLike } from './pricing';
import { QuotaEngine } from './quota-engine.service';
import { ORDER_VOUCHER_MESSAGES, voucherProblem } from './voucher-rules';

/** Unique index deciding order-code races: (organizer_id, code). */
export const ORDER_CODE_INDEX = 'uq_orders_organizer_code';
const SECRET_INDEX = 'uq_order_position_event_secret';

export const CODE_IN_USE = 'This order code is already in use.';
export const CODE_INVALID_CHARS = 'This order code contains invalid characters.';
export const ORDER_EMPTY = 'An order cannot be empty.';
export const SECRET_EXISTS = 'You cannot assign a position secret that already exists.';
export const ITEM_OTHER_EVENT = 'The specified item does not belong to this event.';
export const ITEM_INACTIVE = 'The specified item is not active.';
export const VARIATION_MISSING = 'You should specify a variation for this item.';
export const VARIATION_OTHER_ITEM = 'The specified variation does not belong to the specified item.';
export const VARIATION_NOT_ALLOWED = 'You cannot specify a variation for this item.';
export const SUBEVENT_NOT_ALLOWED = 'You cannot set a subevent for this event.';
export const SUBEVENT_REQUIRED = 'You need to set a subevent.';
export const SEAT_UNKNOWN = 'The specified seat does not exist.';
export const SEAT_ON_ADDON = 'Seats are currently not supported for add-on products.';
export const VOUCHER_UNKNOWN_CODE = 'The specified voucher does not exist.';
export const VOUCHER_ON_ADDON = 'Vouchers are currently not supported for add-on products.';
export const ATTENDEE_NAME_TWICE = 'Do not specify attendee_name if you specified attendee_name_parts.';
export const INVOICE_NAME_TWICE = 'Do not specify name if you specified name_parts.';
export const FREE_PROVIDER_NOT_FREE = 'You cannot use the "free" payment provider for non-free orders.';
/** Order code of a simulated order (compat §4.4 `simulate`). */
export const PREVIEW = 'PREVIEW';

interface ItemRow extends ItemValidity {
  id: number;
  eventId: number;
  organizerId: number;
  active: boolean;
  hasVariations: boolean;
  name: I18nString;
  defaultPrice: string;
  taxRuleId: number | null;
  categoryId: number | null;
}

interface VariationRow {
  id: number;
  itemId: number;
  eventId: number;
  defaultPrice: string | null;
}

interface TaxRuleRow extends TaxRuleLike {
  eventId: number;
}

/** Everything of the event an order create refers to, loaded in bulk (a fixed number of statements). */
interface References {
  items: Map<number, ItemRow>;
  variations: Map<number, VariationRow>;
  taxRules: Map<number, TaxRuleRow>;
  vouchersById: Map<number, Voucher>;
  vouchersByCode: Map<string, Voucher>;
  takenSecrets: Set<string>;
  codeTaken: boolean;
}

/** A position that passed validation, with what the later steps need. */
interface ResolvedPosition {
  input: OrderPositionInputDto;
  positionid: number;
  addonTo: number | null;
  item: ItemRow;
  variation: VariationRow | null;
  voucher: Voucher | null;
  answers: ValidatedAnswer[];
  /** Price forced by a voucher budget (gross), replacing the computed or sent price. */
  priceOverride?: Decimal;
}

/** What a run gives: the created order (presented after the commit), or the wire form of a simulation. */
type Outcome = { kind: 'created'; order: Order } | { kind: 'preview'; json: OrderJson };

/** A position priced and ready to insert. */
interface PricedPosition {
  source: ResolvedPosition;
  entity: OrderPosition;
  budgetUse: Decimal | null;
}

/**
 * `POST E/orders/` (compat §4.4 "Order creation", pretix `OrderCreateSerializer`). One transaction:
 * 1. field rules, reported together: top-level fields, then per position (item, variation, sub-event, secret,
 *    voucher, answers), then the cross-field rules of each position (variation, attendee name), then the
 *    numbering (`positionid`/`addon_to`); per-position errors are aligned (`{"positions": [{}, {...}]}`);
 * 2. sales rules per position: vouchers (add-ons, product, expiry, usage counting this request and live carts
 *    not being consumed, budget), seats, products without a quota;
 * 3. prices, taxes, total, code (reads only);
 * 4. one reservation on all quotas involved ({@link QuotaReservations}: locks only those quota rows, id order);
 * 5. the writes: order, positions (ids in `positionid` order), answers, fees, invoice address, payment,
 *    voucher redemptions, consumed carts, log entries, the confirmation mail. The response is presented after
 *    the commit.
 * Rows are locked in the order carts → vouchers → quotas. `simulate` runs steps 1–4 without locks and
 * reservation (availability is computed, not reserved) and writes nothing.
 */
@Injectable()
export class OrderCreator {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly audit: AuditLogService,
    private readonly reservations: QuotaReservations,
    private readonly engine: QuotaEngine,
    private readonly presentation: OrderPresentation,
    private readonly mail: MailOutboxService,
  ) {}

  /**
   * Creates (or with `simulate` previews) an order.
   * @returns the order as `GET E/orders/{code}/` shows it; a simulated one has code `PREVIEW` and ids 0
   * @throws ValidationFailed for invalid data, an unknown reference, a voucher problem or too little quota
   */
  async create(event: Event, principal: Principal, body: CreateOrderDto): Promise<OrderJson> {
    const simulate = body.simulate === true;
    const transaction = () => this.db.transaction((em) => this.run(em, event, principal, body, simulate));
    const outcome = simulate
      ? await transaction()
      : await uniqueAsValidation(ORDER_CODE_INDEX, 'code', CODE_IN_USE, transaction);
    if (outcome.kind === 'preview') return outcome.json;
    // Presented after the commit, on the pool: the quota and voucher locks are held no longer than the writes.
    const [json] = await this.presentation.orders(
      this.db.manager,
      [outcome.order],
      new Map([[event.id, event.slug]]),
    );
    return json;
  }

  private async run(
    em: EntityManager,
    event: Event,
    principal: Principal,
    body: CreateOrderDto,
    simulate: boolean,
  ): Promise<Outcome> {
    const now = new Date();
    const force = body.force === true;
    const consumeCarts = body.consume_carts ?? [];
    const consumed = await this.consumedCarts(em, event.id, consumeCarts, now, !simulate);
    const refs = await this.loadReferences(em, event, body, !simulate);
    const answers = await validateAnswers(
      em,
      event.id,
      body.positions.map((p) => p.answers),
    );
    const resolved = this.checkFields(event, body, refs, answers.answers, answers.errors);

    const errs: FieldErrors[] = resolved.map(() => ({}));
    await this.checkVouchers(
      em,
      event,
      resolved,
      consumed.map((c) => c.id),
      now,
      force,
      errs,
    );
    resolved.forEach((r, i) => {
      if (r.input.seat === undefined || r.input.seat === null || errs[i].voucher) return;
      errs[i].seat = [r.addonTo !== null ? SEAT_ON_ADDON : SEAT_UNKNOWN];
    });
    const drawsOn = force ? resolved.map(() => [] as number[]) : await this.quotasOf(em, event, resolved);
    if (!force) {
      resolved.forEach((r, i) => {
        if (skipsQuota(r.voucher)) return;
        if (drawsOn[i].length === 0) errs[i].item = [noQuotaMessage(i18nText(r.item.name))];
      });
    }
    throwPositions(errs);

    const priced = await this.price(em, event, resolved, refs, now);
    const fees = (body.fees ?? []).map((f) => {
      const rule = f.tax_rule === undefined || f.tax_rule === null ? null : refs.taxRules.get(f.tax_rule)!;
      const { gross, tax, rate } = lineTax(new Decimal(f.value), rule, true);
      return em.create(OrderFee, {
        id: 0,
        feeType: f.fee_type,
        value: gross.toFixed(2),
        description: f.description ?? '',
        internalType: f.internal_type ?? '',
        taxRate: rate.toFixed(2),
        taxValue: tax.toFixed(2),
        taxRuleId: rule?.id ?? null,
        canceled: false,
      });
    });
    const total = priced
      .reduce((sum, p) => sum.plus(p.entity.price), new Decimal(0))
      .plus(fees.reduce((sum, f) => sum.plus(f.value), new Decimal(0)));
    const provider = body.payment_provider ?? null;
    const free = total.isZero();
    if (provider === 'free' && !free) throw ValidationFailed.bare(FREE_PROVIDER_NOT_FREE);
    // A free order is paid at once (pretix), whatever status was asked for.
    const requestedPaid = body.status === 'p';
    const status: OrderStatus = requestedPaid || free ? 'p' : 'n';

    const order = em.create(Order, {
      eventId: event.id,
      organizerId: event.organizerId,
      code: simulate ? PREVIEW : (body.code ?? (await this.freeCode(em, event.organizerId))),
      status,
      testmode: body.testmode ?? false,
      secret: generateOrderSecret(),
      email: body.email ?? null,
      phone: body.phone ?? null,
      locale: body.locale ?? 'en',
      datetime: now,
      expires: orderExpiry(now, event.timezone),
      total: total.toFixed(2),
      comment: body.comment ?? '',
      customFollowupAt: body.custom_followup_at ?? null,
      checkinAttention: body.checkin_attention ?? false,
      checkinText: body.checkin_text ?? null,
      requireApproval: body.require_approval ?? false,
      validIfPending: body.valid_if_pending ?? false,
      salesChannel: body.sales_channel ?? 'web',
      cancellationDate: null,
      apiMeta: body.api_meta ?? {},
      lastModified: now,
    });
    const address = body.invoice_address ? invoiceAddressEntity(em, body.invoice_address, now) : null;

    // Everything above only reads; the quota rows are locked from here to the commit.
    if (!force) await this.reserve(em, principal, resolved, drawsOn, consumeCarts, simulate, errs);
    if (simulate)
      return { kind: 'preview', json: await this.preview(em, event, order, priced, fees, address) };

    await em.insert(Order, order as QueryDeepPartialEntity<Order>);
    await this.insertPositions(em, order, priced);
    await this.insertAnswers(em, priced);
    if (fees.length > 0) {
      await em.insert(
        OrderFee,
        fees.map((f) => ({ ...f, id: undefined, orderId: order.id })) as QueryDeepPartialEntity<OrderFee>[],
      );
    }
    if (address) {
      await em.insert(InvoiceAddress, {
        ...address,
        id: undefined,
        orderId: order.id,
      } as QueryDeepPartialEntity<InvoiceAddress>);
    }
    await this.redeemVouchers(em, priced);
    if (consumed.length > 0) {
      await em.query('DELETE FROM cart_position WHERE id = ANY($1)', [consumed.map((c) => c.id)]);
    }

    // Payment (pretix): a paid order gets a confirmed payment (`free` when the total is 0 and no provider was
    // named, else the named one or `manual`); a free order asked for as pending gets a `free` one; a pending
    // order with a named provider gets a payment in state `created`.
    let paymentProvider: string | null = provider;
    if (requestedPaid) paymentProvider = provider ?? (free ? 'free' : 'manual');
    else if (free) paymentProvider = 'free';
    if (paymentProvider !== null) {
      await em.insert(OrderPayment, {
        orderId: order.id,
        localId: 1,
        state: status === 'p' ? 'confirmed' : 'created',
        amount: total.toFixed(2),
        provider: paymentProvider,
        created: now,
        paymentDate:
          status !== 'p' ? null : requestedPaid && body.payment_date ? parseDateTime(body.payment_date) : now,
        info: requestedPaid || !free ? (body.payment_info ?? {}) : {},
      } as QueryDeepPartialEntity<OrderPayment>);
    }

    await this.log(em, event, principal, order, 'pretix.event.order.placed', { source: 'api' });
    if (order.requireApproval) {
      await this.log(em, event, principal, order, 'pretix.event.order.placed.require_approval', {});
    }
    if (order.status === 'p') {
      await this.log(em, event, principal, order, 'pretix.event.order.paid', { provider: paymentProvider });
    }
    if (body.send_email === true && order.email) {
      await this.mail.enqueue(em, {
        organizerId: event.organizerId,
        eventId: event.id,
        to: order.email,
        subject: `Your order: ${order.code}`,
        body: confirmationText(event, order, priced),
      });
    }
    return { kind: 'created', order };
  }

  /** Live positions of the carts to consume (locked unless simulating), in id order. */
  private async consumedCarts(
    em: EntityManager,
    eventId: number,
    cartIds: readonly string[],
    now: Date,
    lock: boolean,
  ): Promise<{ id: number }[]> {
    if (cartIds.length === 0) return [];
    return em.query(
      `SELECT id FROM cart_position WHERE event_id = $1 AND cart_id = ANY($2::text[]) AND expires > $3
        ORDER BY id ${lock ? 'FOR UPDATE' : ''}`,
      [eventId, [...cartIds], now],
    );
  }

  /** Items, variations, tax rules, vouchers (locked unless simulating), taken secrets and code; ≤ 6 statements. */
  private async loadReferences(
    em: EntityManager,
    event: Event,
    body: CreateOrderDto,
    lock: boolean,
  ): Promise<References> {
    const positions = body.positions;
    const refs: References = {
      items: new Map(),
      variations: new Map(),
      taxRules: new Map(),
      vouchersById: new Map(),
      vouchersByCode: new Map(),
      takenSecrets: new Set(),
      codeTaken: false,
    };
    const itemIds = unique(positions.map((p) => p.item));
    if (itemIds.length > 0) {
      const rows: ItemRow[] = await em.query(
        `SELECT i.id, i.event_id AS "eventId", e.organizer_id AS "organizerId", i.active,
                i.has_variations AS "hasVariations", i.name, i.default_price AS "defaultPrice",
                i.tax_rule_id AS "taxRuleId", i.category_id AS "categoryId", i.validity_mode AS "validityMode",
                i.validity_fixed_from AS "validityFixedFrom", i.validity_fixed_until AS "validityFixedUntil",
                i.validity_dynamic_duration_minutes AS "validityDynamicDurationMinutes",
                i.validity_dynamic_duration_hours AS "validityDynamicDurationHours",
                i.validity_dynamic_duration_days AS "validityDynamicDurationDays",
                i.validity_dynamic_duration_months AS "validityDynamicDurationMonths"
           FROM item i JOIN event e ON e.id = i.event_id WHERE i.id = ANY($1)`,
        [itemIds],
      );
      rows.forEach((r) => refs.items.set(r.id, r));
    }
    const variationIds = unique(positions.map((p) => p.variation));
    if (variationIds.length > 0) {
      const rows: VariationRow[] = await em.query(
        `SELECT v.id, v.item_id AS "itemId", i.event_id AS "eventId", v.default_price AS "defaultPrice"
           FROM item_variation v JOIN item i ON i.id = v.item_id WHERE v.id = ANY($1)`,
        [variationIds],
      );
      rows.forEach((r) => refs.variations.set(r.id, r));
    }
    const ruleIds = unique([
      ...[...refs.items.values()].filter((i) => i.eventId === event.id).map((i) => i.taxRuleId),
      ...(body.fees ?? []).map((f) => f.tax_rule),
    ]);
    if (ruleIds.length > 0) {
      const rows: TaxRuleRow[] = await em.query(
        `SELECT id, event_id AS "eventId", rate, price_includes_tax AS "priceIncludesTax"
           FROM tax_rule WHERE id = ANY($1) AND event_id = $2`,
        [ruleIds, event.id],
      );
      rows.forEach((r) => refs.taxRules.set(r.id, r));
    }
    const voucherIds = unique(positions.map((p) => (typeof p.voucher === 'number' ? p.voucher : null)));
    const voucherCodes = unique(
      positions.map((p) => (typeof p.voucher === 'string' ? p.voucher.toUpperCase() : null)),
    );
    if (voucherIds.length > 0 || voucherCodes.length > 0) {
      const qb = em
        .getRepository(Voucher)
        .createQueryBuilder('v')
        .where('v.event_id = :event', { event: event.id })
        .andWhere('(v.id = ANY(:ids) OR upper(v.code) = ANY(:codes))', {
          ids: voucherIds,
          codes: voucherCodes,
        })
        .orderBy('v.id', 'ASC');
      if (lock) qb.setLock('pessimistic_write');
      for (const v of await qb.getMany()) {
        refs.vouchersById.set(v.id, v);
        refs.vouchersByCode.set(v.code.toUpperCase(), v);
      }
    }
    const secrets = unique(positions.map((p) => p.secret));
    if (secrets.length > 0) {
      const rows: { secret: string }[] = await em.query(
        'SELECT secret FROM order_position WHERE event_id = $1 AND secret = ANY($2)',
        [event.id, secrets],
      );
      rows.forEach((r) => refs.takenSecrets.add(r.secret));
    }
    if (body.code !== undefined) {
      const rows: unknown[] = await em.query('SELECT 1 FROM orders WHERE organizer_id = $1 AND code = $2', [
        event.organizerId,
        body.code,
      ]);
      refs.codeTaken = rows.length > 0;
    }
    return refs;
  }

  /**
   * Step 1: field rules (DRF field validation, then each position's `validate()`, then `validate_positions`).
   * @throws ValidationFailed with every problem found
   */
  private checkFields(
    event: Event,
    body: CreateOrderDto,
    refs: References,
    answers: ValidatedAnswer[][],
    answerErrors: (FieldErrors[] | null)[],
  ): ResolvedPosition[] {
    const errors: FieldErrors = {};
    if (body.code !== undefined) {
      if (refs.codeTaken) errors.code = [CODE_IN_USE];
      else if (!hasValidCodeChars(body.code)) errors.code = [CODE_INVALID_CHARS];
    }
    const address = body.invoice_address;
    if (address && address.name && address.name_parts && Object.keys(address.name_parts).length > 0) {
      errors.invoice_address = { name: [INVOICE_NAME_TWICE] };
    }
    const feeErrors: FieldErrors[] = (body.fees ?? []).map((f): FieldErrors =>
      f.tax_rule !== undefined && f.tax_rule !== null && !refs.taxRules.has(f.tax_rule)
        ? { tax_rule: [invalidPk(f.tax_rule)] }
        : {},
    );
    if (feeErrors.some(nonEmpty)) errors.fees = feeErrors;

    const seenSecrets = new Set<string>();
    const resolved: (ResolvedPosition | null)[] = [];
    const positionErrors: FieldErrors[] = body.positions.map((p, i) => {
      const e: FieldErrors = {};
      const item = refs.items.get(p.item);
      if (!item || item.organizerId !== event.organizerId) e.item = [invalidPk(p.item)];
      else if (item.eventId !== event.id) e.item = [ITEM_OTHER_EVENT];
      else if (!item.active) e.item = [ITEM_INACTIVE];
      const variation = isSet(p.variation) ? refs.variations.get(p.variation) : undefined;
      if (isSet(p.variation) && (!variation || variation.eventId !== event.id)) {
        e.variation = [invalidPk(p.variation)];
      }
      if (event.hasSubevents) {
        e.subevent = [isSet(p.subevent) ? invalidPk(p.subevent) : SUBEVENT_REQUIRED];
      } else if (isSet(p.subevent)) {
        e.subevent = [SUBEVENT_NOT_ALLOWED];
      }
      if (p.secret !== undefined) {
        if (refs.takenSecrets.has(p.secret) || seenSecrets.has(p.secret)) e.secret = [SECRET_EXISTS];
        seenSecrets.add(p.secret);
      }
      let voucher: Voucher | null = null;
      if (typeof p.voucher === 'number') {
        voucher = refs.vouchersById.get(p.voucher) ?? null;
        if (!voucher) e.voucher = [invalidPk(p.voucher)];
      } else if (typeof p.voucher === 'string') {
        voucher = refs.vouchersByCode.get(p.voucher.toUpperCase()) ?? null;
        if (!voucher) e.voucher = [VOUCHER_UNKNOWN_CODE];
      }
      if (answerErrors[i]) e.answers = answerErrors[i];
      if (nonEmpty(e)) {
        resolved.push(null);
        return e;
      }
      // The position's cross-field rules: the first one failing is reported (DRF `validate()`).
      if (item!.hasVariations && !variation) e.variation = [VARIATION_MISSING];
      else if (item!.hasVariations && variation!.itemId !== item!.id) e.variation = [VARIATION_OTHER_ITEM];
      else if (!item!.hasVariations && variation) e.variation = [VARIATION_NOT_ALLOWED];
      else if (p.attendee_name && p.attendee_name_parts && Object.keys(p.attendee_name_parts).length > 0) {
        e.attendee_name = [ATTENDEE_NAME_TWICE];
      }
      resolved.push(
        nonEmpty(e)
          ? null
          : {
              input: p,
              positionid: 0,
              addonTo: isSet(p.addon_to) ? p.addon_to : null,
              item: item!,
              variation: variation ?? null,
              voucher,
              answers: answers[i],
            },
      );
      return e;
    });
    if (positionErrors.some(nonEmpty)) {
      errors.positions = positionErrors;
    } else if (body.positions.length === 0) {
      errors.positions = [ORDER_EMPTY];
    } else {
      const numbering = numberPositions(body.positions);
      if (numbering.errors) errors.positions = numbering.errors;
      else numbering.ids.forEach((id, i) => (resolved[i]!.positionid = id));
    }
    if (nonEmpty(errors)) throw new ValidationFailed(errors);
    return resolved as ResolvedPosition[];
  }

  /**
   * Step 2, vouchers (pretix order): add-ons cannot use one; the voucher must fit the product and not be expired;
   * uses are counted over this request plus live carts holding it (except the carts being consumed) unless
   * `force`; a budget caps the total discount (a computed price is raised to what the budget still covers, a
   * sent price that needs more is refused).
   */
  private async checkVouchers(
    em: EntityManager,
    event: Event,
    resolved: ResolvedPosition[],
    consumedIds: number[],
    now: Date,
    force: boolean,
    errs: FieldErrors[],
  ): Promise<void> {
    const vouchers = uniqueBy(
      resolved.map((r) => r.voucher).filter((v): v is Voucher => v !== null),
      (v) => v.id,
    );
    if (vouchers.length === 0) return;
    const inCarts = new Map<number, number>();
    const rows: { voucher_id: number; n: number }[] = await em.query(
      `SELECT voucher_id, count(*)::int AS n FROM cart_position
        WHERE event_id = $1 AND voucher_id = ANY($2) AND expires >= $3 AND NOT (id = ANY($4))
        GROUP BY voucher_id`,
      [event.id, vouchers.map((v) => v.id), now, consumedIds],
    );
    rows.forEach((r) => inCarts.set(r.voucher_id, r.n));
    const quotaProducts = await this.quotaVoucherProducts(em, unique(vouchers.map((v) => v.quotaId)));
    const used = new Map<number, number>();
    const budgetLeft = new Map<number, Decimal>();
    resolved.forEach((r, i) => {
      const v = r.voucher;
      if (!v) return;
      if (r.addonTo !== null) {
        errs[i].voucher = [VOUCHER_ON_ADDON];
        return;
      }
      const product = { itemId: r.item.id, variationId: r.variation?.id ?? null, subeventId: null };
      const count = (used.get(v.id) ?? 0) + 1;
      const problem = voucherProblem(
        v,
        product,
        now,
        inCarts.get(v.id) ?? 0,
        count,
        v.quotaId === null ? undefined : (quotaProducts.get(v.quotaId) ?? new Set()),
      );
      if (problem !== null && problem !== 'used_up') {
        errs[i].voucher = [ORDER_VOUCHER_MESSAGES[problem]];
        return;
      }
      used.set(v.id, count);
      if (problem === 'used_up' && !force) errs[i].voucher = [ORDER_VOUCHER_MESSAGES.used_up];
      if (v.budget === null) return;
      const listed = listedPrice(r.item.defaultPrice, r.variation?.defaultPrice);
      const sent = isSet(r.input.price) ? new Decimal(r.input.price) : null;
      const price = sent ?? priceAfterVoucher(listed, v);
      if (!budgetLeft.has(v.id)) budgetLeft.set(v.id, new Decimal(v.budget).minus(v.budgetUsed));
      const left = budgetLeft.get(v.id)!;
      const discount = Decimal.max(listed.minus(price), 0);
      if (discount.lte(left)) {
        budgetLeft.set(v.id, left.minus(discount));
        return;
      }
      budgetLeft.set(v.id, new Decimal(0));
      if (left.lte(0) || sent !== null) {
        errs[i].voucher = [budgetMessage(toMoney(Decimal.max(left, 0)), toMoney(discount))];
        return;
      }
      r.priceOverride = price.plus(discount.minus(left));
    });
  }

  /** Products (`item` or `item:variation` keys) of the quotas of quota-bound vouchers, per quota. */
  private async quotaVoucherProducts(
    em: EntityManager,
    quotaIds: number[],
  ): Promise<Map<number, Set<string>>> {
    const out = new Map<number, Set<string>>();
    if (quotaIds.length === 0) return out;
    const rows: { quota_id: number; key: string }[] = await em.query(
      `SELECT quota_id, item_id::text AS key FROM quota_item WHERE quota_id = ANY($1)
       UNION ALL
       SELECT qv.quota_id, v.item_id || ':' || v.id FROM quota_variation qv
         JOIN item_variation v ON v.id = qv.variation_id WHERE qv.quota_id = ANY($1)`,
      [quotaIds],
    );
    for (const r of rows) {
      const set = out.get(r.quota_id) ?? new Set<string>();
      set.add(r.key);
      out.set(r.quota_id, set);
    }
    return out;
  }

  /**
   * The quotas each position draws on (one statement for all products): for a product without variation the
   * quotas listing the item, else those listing the variation. Positions whose voucher ignores or blocks quota
   * draw on none.
   */
  private async quotasOf(em: EntityManager, event: Event, resolved: ResolvedPosition[]): Promise<number[][]> {
    const counted = resolved.filter((r) => !skipsQuota(r.voucher));
    const itemIds = unique(counted.filter((r) => !r.variation).map((r) => r.item.id));
    const variationIds = unique(counted.map((r) => r.variation?.id ?? null));
    const byProduct = new Map<string, number[]>();
    if (itemIds.length > 0 || variationIds.length > 0) {
      const rows: { quota_id: number; key: string }[] = await em.query(
        `SELECT q.id AS quota_id, qi.item_id::text AS key FROM quota q JOIN quota_item qi ON qi.quota_id = q.id
          WHERE q.event_id = $1 AND q.subevent_id IS NULL AND qi.item_id = ANY($2)
         UNION ALL
         SELECT q.id, v.item_id || ':' || v.id FROM quota q JOIN quota_variation qv ON qv.quota_id = q.id
           JOIN item_variation v ON v.id = qv.variation_id
          WHERE q.event_id = $1 AND q.subevent_id IS NULL AND qv.variation_id = ANY($3)
         ORDER BY 1`,
        [event.id, itemIds, variationIds],
      );
      for (const r of rows) byProduct.set(r.key, [...(byProduct.get(r.key) ?? []), r.quota_id]);
    }
    return resolved.map((r) =>
      skipsQuota(r.voucher) ? [] : (byProduct.get(productKey(r.item.id, r.variation?.id ?? null)) ?? []),
    );
  }

  /**
   * Step 3: one reservation of the summed places per quota. Simulating computes availability instead (no lock,
   * no closing of sold-out quotas). A quota without enough places puts pretix's message on the `item` of every
   * position drawing on it.
   * @throws ValidationFailed `{"positions": [...]}`
   */
  private async reserve(
    em: EntityManager,
    principal: Principal,
    resolved: ResolvedPosition[],
    drawsOn: number[][],
    consumeCarts: readonly string[],
    simulate: boolean,
    errs: FieldErrors[],
  ): Promise<void> {
    const needed = new Map<number, number>();
    for (const ids of drawsOn) for (const id of ids) needed.set(id, (needed.get(id) ?? 0) + 1);
    if (needed.size === 0) return;
    const quotaIds = [...needed.keys()].sort((a, b) => a - b);
    let exceeded: Quota | null = null;
    if (simulate) {
      const quotas = await em.find(Quota, { where: { id: In(quotaIds) }, order: { id: 'ASC' } });
      const availability = await this.engine.compute(em, quotas, { excludeCartIds: consumeCarts });
      exceeded =
        quotas.find((q) => {
          const a = availability.get(q.id)!;
          return !a.available || (a.available_number !== null && a.available_number < needed.get(q.id)!);
        }) ?? null;
    } else {
      try {
        await this.reservations.reserve(em, principal, quotaIds, needed, { excludeCartIds: consumeCarts });
      } catch (err) {
        if (!(err instanceof QuotaExceeded)) throw err;
        exceeded = err.quota;
      }
    }
    if (!exceeded) return;
    const quotaId = exceeded.id;
    const message = new QuotaExceeded(exceeded).message;
    resolved.forEach((_r, i) => {
      if (drawsOn[i].includes(quotaId)) errs[i].item = [message];
    });
    throwPositions(errs);
  }

  /**
   * Prices, taxes, secrets and validity of the positions (compat §4.4): a price sent (or forced by a voucher
   * budget) is gross; otherwise the listed price (0 for an add-on whose parent includes its category's price)
   * after the voucher, with tax added on top when the item's tax rule excludes tax. `voucher_budget_use` is what
   * the voucher took off the listed price.
   */
  private async price(
    em: EntityManager,
    event: Event,
    resolved: ResolvedPosition[],
    refs: References,
    now: Date,
  ): Promise<PricedPosition[]> {
    const included = await this.includedAddons(em, resolved);
    const parentItem = new Map(resolved.map((r) => [r.positionid, r.item.id]));
    return resolved.map((r) => {
      const p = r.input;
      const parent = r.addonTo === null ? undefined : parentItem.get(r.addonTo);
      const free = parent !== undefined && included.has(`${parent}/${r.item.categoryId}`);
      const listed = free ? new Decimal(0) : listedPrice(r.item.defaultPrice, r.variation?.defaultPrice);
      const rule = r.item.taxRuleId === null ? null : (refs.taxRules.get(r.item.taxRuleId) ?? null);
      const voucherPrice = r.voucher ? priceAfterVoucher(listed, r.voucher) : null;
      const sent = r.priceOverride ?? (isSet(p.price) ? new Decimal(p.price) : null);
      const line = lineTax(sent ?? voucherPrice ?? listed, rule, sent !== null);
      let effective = voucherPrice ?? listed;
      if (sent !== null && voucherPrice !== null) {
        const base = !rule || rule.priceIncludesTax ? sent : sent.minus(line.tax);
        effective = Decimal.max(base, voucherPrice);
      }
      const validity =
        p.valid_from === undefined && p.valid_until === undefined
          ? ticketValidity(r.item, now, event.timezone)
          : {
              validFrom: isSet(p.valid_from) ? parseDateTime(p.valid_from) : null,
              validUntil: isSet(p.valid_until) ? parseDateTime(p.valid_until) : null,
            };
      const nameParts =
        p.attendee_name_parts && Object.keys(p.attendee_name_parts).length > 0
          ? p.attendee_name_parts
          : p.attendee_name
            ? { _legacy: p.attendee_name }
            : {};
      const entity = em.create(OrderPosition, {
        id: 0,
        orderId: 0,
        eventId: event.id,
        positionid: r.positionid,
        itemId: r.item.id,
        variationId: r.variation?.id ?? null,
        subeventId: null,
        price: line.gross.toFixed(2),
        taxRate: line.rate.toFixed(2),
        taxValue: line.tax.toFixed(2),
        taxRuleId: rule?.id ?? null,
        attendeeNameParts: nameParts,
        attendeeEmail: p.attendee_email ?? null,
        company: p.company ?? null,
        street: p.street ?? null,
        zipcode: p.zipcode ?? null,
        city: p.city ?? null,
        country: isSet(p.country) && p.country !== '' ? p.country.toUpperCase() : (p.country ?? null),
        state: p.state ?? null,
        voucherId: r.voucher?.id ?? null,
        voucherBudgetUse: null,
        addonToId: r.addonTo,
        isBundled: p.is_bundled ?? false,
        secret: p.secret ?? generatePositionSecret(),
        pseudonymizationId: generatePseudonymizationId(),
        seatId: null,
        canceled: false,
        validFrom: validity.validFrom,
        validUntil: validity.validUntil,
        discountId: null,
      });
      const budgetUse = r.voucher ? Decimal.max(listed.minus(effective), 0) : null;
      entity.voucherBudgetUse = budgetUse ? budgetUse.toFixed(2) : null;
      return { source: r, entity, budgetUse };
    });
  }

  /** `baseItem/category` keys of add-on configurations that include the add-on's price (one statement). */
  private async includedAddons(em: EntityManager, resolved: ResolvedPosition[]): Promise<Set<string>> {
    if (!resolved.some((r) => r.addonTo !== null)) return new Set();
    const rows: { key: string }[] = await em.query(
      `SELECT base_item_id || '/' || addon_category_id AS key FROM item_addon
        WHERE price_included AND base_item_id = ANY($1)`,
      [unique(resolved.map((r) => r.item.id))],
    );
    return new Set(rows.map((r) => r.key));
  }

  /** A code of the organizer not yet used (checked; the unique index decides a race). */
  private async freeCode(em: EntityManager, organizerId: number): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      const code = generateOrderCode();
      const rows: unknown[] = await em.query('SELECT 1 FROM orders WHERE organizer_id = $1 AND code = $2', [
        organizerId,
        code,
      ]);
      if (rows.length === 0 || attempt >= 20) return code;
    }
  }

  /**
   * Inserts the positions in one statement, ids taken from the sequence first so that they follow `positionid`
   * and add-ons can point at their parents. A sent secret taken concurrently (unique index) is reported on the
   * positions that sent one.
   */
  private async insertPositions(em: EntityManager, order: Order, priced: PricedPosition[]): Promise<void> {
    const rows: { id: number }[] = await em.query(
      `SELECT nextval(pg_get_serial_sequence('order_position', 'id'))::int AS id FROM generate_series(1, $1)`,
      [priced.length],
    );
    const ids = rows.map((r) => r.id).sort((a, b) => a - b);
    priced.forEach((p, i) => {
      p.entity.id = ids[i];
      p.entity.orderId = order.id;
    });
    const idOf = new Map(priced.map((p) => [p.entity.positionid, p.entity.id]));
    for (const p of priced)
      if (p.entity.addonToId !== null) p.entity.addonToId = idOf.get(p.entity.addonToId)!;
    try {
      // With an explicit column list TypeORM writes the preassigned ids (it leaves serial ids out otherwise).
      const columns = em.connection.getMetadata(OrderPosition).columns.map((c) => c.propertyPath);
      await em
        .createQueryBuilder()
        .insert()
        .into(OrderPosition, columns)
        .values(priced.map((p) => ({ ...p.entity })) as QueryDeepPartialEntity<OrderPosition>[])
        .updateEntity(false)
        .execute();
    } catch (err) {
      const driver =
        err instanceof QueryFailedError ? (err.driverError as { code?: string; constraint?: string }) : {};
      if (driver.code === '23505' && driver.constraint === SECRET_INDEX) {
        throwPositions(
          priced.map((p): FieldErrors =>
            p.source.input.secret !== undefined ? { secret: [SECRET_EXISTS] } : {},
          ),
        );
      }
      throw err;
    }
  }

  /** Answers of all positions (one statement) and their options (one more). */
  private async insertAnswers(em: EntityManager, priced: PricedPosition[]): Promise<void> {
    const rows = priced.flatMap((p) => p.source.answers.map((a) => ({ positionId: p.entity.id, answer: a })));
    if (rows.length === 0) return;
    const result: { id: number }[] = await em.query(
      `INSERT INTO question_answer (order_position_id, question_id, answer)
       SELECT * FROM unnest($1::int[], $2::int[], $3::text[]) RETURNING id`,
      [rows.map((r) => r.positionId), rows.map((r) => r.answer.questionId), rows.map((r) => r.answer.answer)],
    );
    const ids = result.map((r) => r.id);
    const links = rows.flatMap((r, i) => r.answer.optionIds.map((option) => [ids[i], option] as const));
    if (links.length === 0) return;
    await em.query(
      'INSERT INTO question_answer_option (answer_id, option_id) SELECT * FROM unnest($1::int[], $2::int[])',
      [links.map((l) => l[0]), links.map((l) => l[1])],
    );
  }

  /** `redeemed` + uses and `budget_used` + the discounts, one statement per voucher. */
  private async redeemVouchers(em: EntityManager, priced: PricedPosition[]): Promise<void> {
    const perVoucher = new Map<number, { uses: number; budget: Decimal }>();
    for (const p of priced) {
      const id = p.entity.voucherId;
      if (id === null) continue;
      const entry = perVoucher.get(id) ?? { uses: 0, budget: new Decimal(0) };
      entry.uses += 1;
      entry.budget = entry.budget.plus(p.budgetUse ?? 0);
      perVoucher.set(id, entry);
    }
    for (const [id, { uses, budget }] of [...perVoucher.entries()].sort((a, b) => a[0] - b[0])) {
      await em.query(
        'UPDATE voucher SET redeemed = redeemed + $2, budget_used = budget_used + $3 WHERE id = $1',
        [id, uses, budget.toFixed(2)],
      );
    }
  }

  /** The simulated order: what would be created, with code `PREVIEW`, ids 0 and `addon_to` as positionid. */
  private async preview(
    em: EntityManager,
    event: Event,
    order: Order,
    priced: PricedPosition[],
    fees: OrderFee[],
    address: InvoiceAddress | null,
  ): Promise<OrderJson> {
    const answers = await this.previewAnswers(em, priced);
    order.id = 0;
    const positions = priced.map((p, i) =>
      toOrderPositionJson(
        { ...p.entity, pseudonymizationId: PREVIEW },
        {
          orderCode: PREVIEW,
          answers: answers[i],
          checkins: [],
        },
      ),
    );
    return toOrderJson(order, {
      eventSlug: event.slug,
      positions,
      fees,
      payments: [],
      invoiceAddress: address,
    });
  }

  /** Wire answers of simulated positions, with question and option identifiers (two statements). */
  private async previewAnswers(em: EntityManager, priced: PricedPosition[]): Promise<AnswerJson[][]> {
    const all = priced.flatMap((p) => p.source.answers);
    const identifiers = new Map<string, string>();
    if (all.length > 0) {
      const rows: { key: string; identifier: string }[] = await em.query(
        `SELECT 'q' || id AS key, identifier FROM question WHERE id = ANY($1)
         UNION ALL SELECT 'o' || id, identifier FROM question_option WHERE id = ANY($2)`,
        [unique(all.map((a) => a.questionId)), unique(all.flatMap((a) => a.optionIds))],
      );
      rows.forEach((r) => identifiers.set(r.key, r.identifier));
    }
    return priced.map((p) =>
      p.source.answers.map((a) => ({
        question: a.questionId,
        answer: a.answer,
        question_identifier: identifiers.get(`q${a.questionId}`) ?? '',
        options: a.optionIds,
        option_identifiers: a.optionIds.map((o) => identifiers.get(`o${o}`) ?? ''),
      })),
    );
  }

  private async log(
    em: EntityManager,
    event: Event,
    principal: Principal,
    order: Order,
    action: string,
    data: Record<string, unknown>,
  ): Promise<void> {
    await this.audit.record(em, principal, {
      organizerId: event.organizerId,
      eventId: event.id,
      contentType: 'order',
      objectId: order.id,
      action,
      data,
    });
  }
}

/** The stored form of a sent invoice address (`name` becomes `{"_legacy": name}`; country upper-cased). */
export function invoiceAddressEntity(
  em: EntityManager,
  input: InvoiceAddressInputDto,
  now: Date,
): InvoiceAddress {
  const parts =
    input.name_parts && Object.keys(input.name_parts).length > 0
      ? input.name_parts
      : input.name
        ? { _legacy: input.name }
        : {};
  return em.create(InvoiceAddress, {
    isBusiness: input.is_business ?? false,
    company: input.company ?? '',
    nameParts: parts,
    street: input.street ?? '',
    zipcode: input.zipcode ?? '',
    city: input.city ?? '',
    country: (input.country ?? '').toUpperCase(),
    state: input.state ?? '',
    vatId: input.vat_id ?? '',
    vatIdValidated: input.vat_id_validated ?? false,
    customField: input.custom_field ?? null,
    internalReference: input.internal_reference ?? '',
    beneficiary: '',
    lastModified: now,
  });
}

/** A voucher that lets its position ignore quota, or already holds the place (blocking). */
function skipsQuota(voucher: Voucher | null): boolean {
  return voucher !== null && (voucher.allowIgnoreQuota || voucher.blockQuota);
}

function productKey(itemId: number, variationId: number | null): string {
  return variationId === null ? `${itemId}` : `${itemId}:${variationId}`;
}

/** Throws `{"positions": errs}` when any position has an error. */
function throwPositions(errs: FieldErrors[]): void {
  if (errs.some(nonEmpty)) throw new ValidationFailed({ positions: errs });
}

function nonEmpty(e: FieldErrors): boolean {
  return Object.keys(e).length > 0;
}

function isSet<T>(v: T | null | undefined): v is T {
  return v !== undefined && v !== null;
}

function unique<T>(values: (T | null | undefined)[]): T[] {
  return [...new Set(values.filter(isSet))];
}

function uniqueBy<T, K>(values: T[], key: (v: T) => K): T[] {
  const seen = new Map<K, T>();
  for (const v of values) if (!seen.has(key(v))) seen.set(key(v), v);
  return [...seen.values()];
}

/** Plain-text order confirmation for the outbox. */
function confirmationText(event: Event, order: Order, priced: PricedPosition[]): string {
  const lines = priced.map(
    (p) => `- ${p.entity.positionid}. ${i18nText(p.source.item.name)}: ${p.entity.price} ${event.currency}`,
  );
  return [
    `Hello,`,
    ``,
    `thank you for your order ${order.code} for ${i18nText(event.name)}.`,
    ``,
    ...lines,
    ``,
    `Total: ${order.total} ${event.currency}`,
    `Status: ${order.status === 'p' ? 'paid' : 'pending'}`,
  ].join('\n');
}
