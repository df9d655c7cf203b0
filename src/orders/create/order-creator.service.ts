import { Injectable } from '@nestjs/common';
import { SalesChannelDirectory } from '../../organizers/sales-channels/sales-channel-directory.queries';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import { QuotaLookup } from '../../catalogue/quotas/quota-lookup.service';
import {
  noQuotaMessage,
  QuotaExceeded,
  QuotaReservations,
} from '../../catalogue/quotas/quota-reservations.service';
import { productKey } from '../../catalogue/quotas/quota-lookup.service';
import {
  notOnThisDateMessage,
  SalesCatalogue,
  subeventProductAvailable,
} from '../../catalogue/sales/sales-catalogue.service';
import { skipsQuota, voucherUses } from '../../catalogue/vouchers/voucher-redemption.rules';
import { VoucherRedemptions } from '../../catalogue/vouchers/voucher-redemptions.service';
import { FieldErrors, NotFound, ValidationFailed } from '../../common/errors';
import { uniqueAsValidation } from '../../common/persistence/unique';
import { parseDateTime } from '../../common/values/datetime';
import { i18nText } from '../../common/values/i18n';
import { MailOutboxService } from '../../mail/mail-outbox.service';
import type { Event } from '../../organizers/event.entity';
import { TenancyQueries } from '../../organizers/tenancy.queries';
import { AnswerJson, OrderJson, toOrderJson, toOrderPositionJson } from '../presentation/order.presenter';
import { UploadedFiles } from '../../tasks/uploads/uploaded-files.service';
import { loadCheckedAnswers } from '../answers/answers-check';
import { CartWriter } from '../carts/cart-writer';
import type { CreateOrderDto } from './order.dto';
import {
  checkSeats,
  checkVoucherUse,
  confirmationText,
  initialStatus,
  orderTotal,
  orderValues,
  priceFees,
  PricedPosition,
  pricePositions,
  quotaProducts,
  ResolvedPosition,
  resolvePositions,
} from './order-create.rules';
import { logOrder, OrderActor } from '../writing/order-log';
import { OrderPayments } from '../payments/order-payments.service';
import { firstPayment } from '../payments/order-payments.rules';
import { withOneConnection } from '../../common/persistence/one-connection';
import { bindWriteResult, resumedWriteResult } from '../../common/http/idempotent-commit';
import { OrderPresentation } from '../presentation/order-presentation.service';
import { generateOrderCode, generateOrderSecret, orderExpiry } from './order-rules';
import { NewOrder, ORDER_CODE_INDEX, OrderWriter } from '../writing/order-writer';
import { Order } from '../entities/order.entity';
import { AfterCommit, OrderHooks } from '../writing/order-hooks';
import { CODE_IN_USE, FREE_PROVIDER_NOT_FREE, PREVIEW } from './order-create.messages';
import { invoiceAddressValues } from './invoice-address.rules';
import { placesPerQuota, throwPositions } from '../writing/sales.rules';
import { SeatHolds } from '../seats/seat-holds';
import { seatTakenAsValidation } from '../seats/seat-taken';
import { OrderCreateQueries } from './order-create.queries';
import { OrderTransactionLog } from '../transactions/order-transaction-log';
import { GiftCardPayments } from '../giftcard-payments/gift-card-payments.service';
import { checkUseGiftCards } from './order-gift-cards';
import { CustomerReads, unknownCustomer } from '../../customers/customer-reads.service';

/** What a run gives: the created order (presented after the commit), or the wire form of a simulation. */
type Outcome = { kind: 'created'; order: Order; after: AfterCommit[] } | { kind: 'preview'; json: OrderJson };

/**
 * `POST E/orders/` (compat §4.4 "Order creation", pretix `OrderCreateSerializer`). One transaction:
 * 1. the customer (an identifier of the organizer's customers, {@link CustomerReads}); field rules, reported
 *    together ({@link resolvePositions});
 * 2. sales rules per position: vouchers (add-ons, product, expiry, usage counting this request and live carts
 *    not being consumed, budget; {@link checkVoucherUse}), seats, products without a quota;
 * 3. prices, taxes, total, code (reads only; {@link pricePositions});
 * 4. one reservation on all quotas involved ({@link QuotaReservations}: locks only those quota rows, id order);
 * 5. the writes ({@link OrderWriter}): order, positions, answers, fees, invoice address; then voucher
 *    redemptions ({@link VoucherRedemptions}), consumed carts, the first payment ({@link OrderPayments}) or the
 *    gift cards of `use_gift_cards` ({@link GiftCardPayments}), log
 *    entries and the confirmation mail; then the `placed` {@link OrderHooks} (automatic invoices). The response
 *    is presented after the commit, after the hooks' follow-up work.
 * Rows are locked in the global order of sales (README "Locks"): event row (shared) → carts → vouchers → seats →
 * quotas. A seat is checked under its lock; the partial unique index over live positions' seats is the backstop.
 * `simulate` runs steps 1–4 without locks and
 * reservation (availability is computed, not reserved) and writes nothing.
 */
@Injectable()
export class OrderCreator {
  constructor(
    @InjectEntityManager() private readonly em: EntityManager,
    private readonly audit: AuditLogService,
    private readonly catalogue: SalesCatalogue,
    private readonly quotaLookup: QuotaLookup,
    private readonly reservations: QuotaReservations,
    private readonly redemptions: VoucherRedemptions,
    private readonly writer: OrderWriter,
    private readonly carts: CartWriter,
    private readonly payments: OrderPayments,
    private readonly presentation: OrderPresentation,
    private readonly mail: MailOutboxService,
    private readonly tenancy: TenancyQueries,
    private readonly seatHolds: SeatHolds,
    private readonly hooks: OrderHooks,
    private readonly queries: OrderCreateQueries,
    private readonly transactions: OrderTransactionLog,
    private readonly giftCards: GiftCardPayments,
    private readonly customers: CustomerReads,
    private readonly channels: SalesChannelDirectory,
    private readonly uploads: UploadedFiles,
  ) {}

  /**
   * Creates (or with `simulate` previews) an order.
   * @returns the order as `GET E/orders/{code}/` shows it; a simulated one has code `PREVIEW` and ids 0
   * @throws ValidationFailed for invalid data, an unknown reference, a voucher problem or too little quota
   */
  async create(event: Event, principal: Principal, body: CreateOrderDto): Promise<OrderJson> {
    const simulate = body.simulate === true;
    checkUseGiftCards(body);
    if (
      typeof body.sales_channel === 'string' &&
      !(await this.channels.exists(this.em, event.organizerId, body.sales_channel))
    ) {
      throw ValidationFailed.field('sales_channel', 'Unknown sales channel.');
    }
    const actor: OrderActor = { event, principal };
    const resumed = simulate ? null : resumedWriteResult();
    if (resumed !== null) return this.presentResumed(event, Number(resumed));
    // Presented after the commit on the connection that wrote (withOneConnection): the quota and voucher locks
    // are held no longer than the writes, and a busy pool cannot answer 503 for an order that was created.
    return withOneConnection(this.em, async (conn) => {
      const transaction = () => conn.transaction((em) => this.run(em, actor, body, simulate));
      const outcome = simulate
        ? await transaction()
        : await seatTakenAsValidation(() =>
            uniqueAsValidation(ORDER_CODE_INDEX, 'code', CODE_IN_USE, transaction),
          );
      if (outcome.kind === 'preview') return outcome.json;
      await this.hooks.afterCommit(outcome.after);
      const [json] = await this.presentation.orders(conn, [outcome.order], new Map([[event.id, event.slug]]));
      return json;
    });
  }

  /**
   * The answer to a retry of a keyed creation whose order committed but whose answer was lost (README "Idempotent
   * writes"): the order the first run created, as that run would have answered.
   * @throws NotFound when that order is gone since (shredded or its event deleted)
   */
  private presentResumed(event: Event, orderId: number): Promise<OrderJson> {
    return withOneConnection(this.em, async (conn) => {
      const order = await conn.findOneBy(Order, { id: orderId, eventId: event.id });
      if (!order) throw new NotFound();
      const [json] = await this.presentation.orders(conn, [order], new Map([[event.id, event.slug]]));
      return json;
    });
  }

  private async run(
    em: EntityManager,
    actor: OrderActor,
    body: CreateOrderDto,
    simulate: boolean,
  ): Promise<Outcome> {
    const { event } = actor;
    // First lock of the sale: the event row, shared (an event delete waits for this order, or this order for it).
    if (!simulate && !(await this.tenancy.lockEventForSale(em, event.id))) throw new NotFound();
    if (
      body.customer !== undefined &&
      !(await this.customers.byIdentifier(em, event.organizerId, body.customer))
    )
      throw ValidationFailed.field('customer', unknownCustomer(body.customer));
    const now = new Date();
    const force = body.force === true;
    const consumeCarts = body.consume_carts ?? [];
    const consumed = await this.carts.liveIn(em, event.id, consumeCarts, now, !simulate);
    const positions = body.positions;
    const catalogue = await this.catalogue.load(em, event, {
      itemIds: positions.map((p) => p.item),
      variationIds: positions.map((p) => p.variation),
      itemTaxRules: true,
      taxRuleIds: (body.fees ?? []).map((f) => f.tax_rule),
      voucherIds: positions.map((p) => (typeof p.voucher === 'number' ? p.voucher : null)),
      voucherCodes: positions.map((p) => (typeof p.voucher === 'string' ? p.voucher : null)),
      subeventIds: positions.map((p) => p.subevent),
    });
    // The vouchers as read under their locks (unless simulating), with the live carts holding them.
    const inUse = await this.redemptions.inUse(em, [...catalogue.vouchersById.keys()], {
      now,
      lock: !simulate,
      exceptCartPositions: consumed,
    });
    for (const { voucher } of inUse.values()) {
      catalogue.vouchersById.set(voucher.id, voucher);
      catalogue.vouchersByCode.set(voucher.code.toUpperCase(), voucher);
    }
    const refs = {
      catalogue,
      takenSecrets: await this.takenSecrets(
        em,
        event.id,
        positions.map((p) => p.secret),
      ),
      codeTaken: body.code !== undefined && (await this.codeTaken(em, event.organizerId, body.code)),
    };
    const answers = await loadCheckedAnswers(
      this.catalogue,
      em,
      event,
      positions.map((p) => p.answers),
      { uploads: this.uploads, principal: actor.principal, keep: !simulate },
    );
    const resolved = resolvePositions(event, body, refs, answers.answers, answers.errors);

    const errs: FieldErrors[] = resolved.map(() => ({}));
    checkVoucherUse(resolved, inUse, catalogue, now, force, errs);
    // Seats: locked after the vouchers, before the quotas (README "Locks"), then checked under their locks.
    const seatRefs = await this.seatHolds.refs(
      em,
      event,
      resolved.map((r) => r.item.id),
      resolved
        .filter((r) => r.addonTo === null && typeof r.input.seat === 'string')
        .map((r) => ({ subeventId: r.subeventId, guid: r.input.seat! })),
      {
        now,
        lock: !simulate,
        exceptCartPositions: consumed,
        exceptVouchers: resolved.flatMap((r) => (r.voucher ? [r.voucher.id] : [])),
      },
    );
    checkSeats(resolved, seatRefs, errs);
    const drawsOn = force ? resolved.map(() => [] as number[]) : await this.drawsOn(em, event, resolved);
    if (!force) {
      // pretix: a product disabled on the date (or outside its window there) is refused unless forced or sold
      // through a quota-skipping voucher; "not assigned to a quota" takes precedence (compat §3.17).
      resolved.forEach((r, i) => {
        if (skipsQuota(r.voucher)) return;
        const product = [r.subeventId, r.item.id, r.variation?.id ?? null] as const;
        if (!subeventProductAvailable(catalogue.subeventAvailability, ...product, now))
          errs[i].item = [notOnThisDateMessage(i18nText(r.item.name))];
        if (drawsOn[i].length === 0) errs[i].item = [noQuotaMessage(i18nText(r.item.name))];
      });
    }
    throwPositions(errs);

    const included = await this.catalogue.includedAddons(
      em,
      resolved.some((r) => r.addonTo !== null) ? resolved.map((r) => r.item.id) : [],
    );
    const priced = pricePositions(event, resolved, catalogue.taxRules, included, now);
    const fees = priceFees(body.fees ?? [], catalogue.taxRules);
    const total = orderTotal(priced, fees);
    if (body.payment_provider === 'free' && !total.isZero())
      throw ValidationFailed.bare(FREE_PROVIDER_NOT_FREE);
    const draft: NewOrder = {
      order: orderValues(event, body, {
        code: simulate ? PREVIEW : (body.code ?? (await this.freeCode(em, event.organizerId))),
        status: initialStatus(body, total),
        total,
        secret: generateOrderSecret(),
        expires: body.expires ? parseDateTime(body.expires) : orderExpiry(now, event.timezone),
        now,
      }),
      positions: priced,
      fees,
      address: body.invoice_address ? invoiceAddressValues(body.invoice_address, now) : null,
    };

    // Everything above only reads; the quota rows are locked from here to the commit.
    if (!force) await this.reserve(em, actor, resolved, drawsOn, consumeCarts, simulate, errs);
    if (simulate) return { kind: 'preview', json: await this.preview(em, event, draft, priced) };

    const { order } = await this.writer.create(em, draft);
    bindWriteResult(String(order.id)); // stored with an idempotency key by this transaction's commit
    await this.redemptions.redeem(
      em,
      voucherUses(priced.map((p) => ({ voucherId: p.values.voucherId, voucherBudgetUse: p.budgetUse }))),
    );
    await this.carts.deleteConsumed(em, consumed);
    const payment = firstPayment(
      {
        requestedPaid: body.status === 'p',
        free: total.isZero(),
        provider: body.payment_provider ?? null,
        paymentDate: body.payment_date ? parseDateTime(body.payment_date) : null,
        paymentInfo: body.payment_info,
      },
      now,
    );
    if (payment) await this.payments.open(em, order, payment, now);
    const giftCardPaid = await this.giftCards.payNewOrder(em, actor, order, body.use_gift_cards ?? [], now);
    await this.transactions.sync(em, order.id, now);

    await logOrder(this.audit, em, actor, order.id, 'pretix.event.order.placed', { source: 'api' });
    if (order.requireApproval) {
      await logOrder(this.audit, em, actor, order.id, 'pretix.event.order.placed.require_approval');
    }
    if (order.status === 'p') {
      await logOrder(this.audit, em, actor, order.id, 'pretix.event.order.paid', {
        provider: payment?.provider ?? (giftCardPaid ? 'giftcard' : null),
      });
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
    const after = await this.hooks.fire({
      em,
      event,
      order,
      principal: actor.principal,
      transition: 'placed',
    });
    return { kind: 'created', order, after };
  }

  /** The quotas each position draws on (one statement for all products); none for quota-skipping vouchers. */
  private async drawsOn(
    em: EntityManager,
    event: OrderActor['event'],
    resolved: ResolvedPosition[],
  ): Promise<number[][]> {
    const products = quotaProducts(resolved);
    const byProduct = await this.quotaLookup.forProducts(
      em,
      event.id,
      products.filter((p) => p !== null),
    );
    return products.map((p) => (p === null ? [] : (byProduct.get(productKey(p)) ?? [])));
  }

  /**
   * Step 4: one reservation of the summed places per quota. Simulating counts instead (no lock, no closing of
   * sold-out quotas). A quota without enough places puts pretix's message on the `item` of every position drawing
   * on it.
   * @throws ValidationFailed `{"positions": [...]}`
   */
  private async reserve(
    em: EntityManager,
    actor: OrderActor,
    resolved: ResolvedPosition[],
    drawsOn: number[][],
    consumeCarts: readonly string[],
    simulate: boolean,
    errs: FieldErrors[],
  ): Promise<void> {
    const needed = placesPerQuota(drawsOn);
    if (needed.size === 0) return;
    const quotaIds = [...needed.keys()].sort((a, b) => a - b);
    let exceeded: QuotaExceeded | null = null;
    if (simulate) {
      const { quotas, before } = await this.reservations.count(em, quotaIds, {
        excludeCartIds: consumeCarts,
        lock: false,
      });
      const full = quotas.find((q) => {
        const a = before.get(q.id)!;
        return !a.available || (a.available_number !== null && a.available_number < needed.get(q.id)!);
      });
      if (full) exceeded = new QuotaExceeded(full);
    } else {
      try {
        await this.reservations.reserve(em, actor, quotaIds, needed, { excludeCartIds: consumeCarts });
      } catch (err) {
        if (!(err instanceof QuotaExceeded)) throw err;
        exceeded = err;
      }
    }
    if (!exceeded) return;
    const { quota, message } = exceeded;
    resolved.forEach((_r, i) => {
      if (drawsOn[i].includes(quota.id)) errs[i].item = [message];
    });
    throwPositions(errs);
  }

  /** The simulated order: what would be created, with code `PREVIEW`, ids 0 and `addon_to` as positionid. */
  private async preview(
    em: EntityManager,
    event: OrderActor['event'],
    draft: NewOrder,
    priced: PricedPosition[],
  ): Promise<OrderJson> {
    const answers = await this.previewAnswers(em, priced);
    const positions = priced.map((p, i) =>
      toOrderPositionJson(
        { ...p.values, id: 0, orderId: 0, pseudonymizationId: PREVIEW, exited: false },
        { orderCode: PREVIEW, answers: answers[i], checkins: [] },
      ),
    );
    return toOrderJson(
      { ...draft.order, id: 0 },
      {
        eventSlug: event.slug,
        positions,
        fees: draft.fees.map((f) => ({ ...f, id: 0, orderId: 0 })),
        payments: [],
        refunds: [],
        invoiceAddress: draft.address ? { ...draft.address, id: 0, orderId: 0 } : null,
      },
    );
  }

  /** Wire answers of simulated positions, with question and option identifiers (one statement). */
  private async previewAnswers(em: EntityManager, priced: PricedPosition[]): Promise<AnswerJson[][]> {
    const all = priced.flatMap((p) => p.answers);
    const { questions, options } = await this.catalogue.questions(
      em,
      all.map((a) => a.questionId),
      all.flatMap((a) => a.optionIds),
    );
    return priced.map((p) =>
      p.answers.map((a) => ({
        question: a.questionId,
        answer: a.answer,
        question_identifier: questions.get(a.questionId)?.identifier ?? '',
        options: a.optionIds,
        option_identifiers: a.optionIds.map((o) => options.get(o)?.identifier ?? ''),
      })),
    );
  }

  /** Secrets among `secrets` that positions of the event already use (one statement). */
  private async takenSecrets(
    em: EntityManager,
    eventId: number,
    secrets: (string | undefined)[],
  ): Promise<Set<string>> {
    const sent = [...new Set(secrets.filter((s): s is string => s !== undefined))];
    if (sent.length === 0) return new Set();
    const rows = await this.queries.takenSecrets(em, eventId, sent);
    return new Set(rows.map((r) => r.secret));
  }

  /** Whether an order of the organizer has this code. */
  private async codeTaken(em: EntityManager, organizerId: number, code: string): Promise<boolean> {
    return this.queries.codeTaken(em, organizerId, code);
  }

  /** A code of the organizer not yet used (checked; the unique index decides a race). */
  private async freeCode(em: EntityManager, organizerId: number): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      const code = generateOrderCode();
      if (!(await this.codeTaken(em, organizerId, code)) || attempt >= 20) return code;
    }
  }
}
