import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditLogService, AuditRecord } from '../../audit/audit-log.service';
import { isoUtc } from '../../common/values/datetime';
import { i18nText } from '../../common/values/i18n';
import { Decimal } from '../../common/values/money';
import { MailOutboxService } from '../../mail/mail-outbox.service';
import {
  generateOrderCode,
  generateOrderSecret,
  generatePositionSecret,
  orderExpiry,
} from '../create/order-rules';
import { InvoiceAddress } from '../entities/invoice-address.entity';
import { OrderFee } from '../entities/order-fee.entity';
import { OrderPayment } from '../entities/order-payment.entity';
import type { OrderPosition } from '../entities/order-position.entity';
import { OrderRefund } from '../entities/order-refund.entity';
import { Order } from '../entities/order.entity';
import { paidCredit } from '../payments/order-payments.rules';
import type { OrderActor } from '../writing/order-log';
import { OrderChange, OrderWriter } from '../writing/order-writer';
import { ChangeLog, ChangePlan, ChangeRequest } from './order-change.model';
import { OrderChangeQueries, PositionUpdate } from './order-change.queries';
import { holdsPlaces, orderChangedMail, statusAfterChange } from './order-change.rules';

const sum = (values: readonly string[]) => values.reduce((s, v) => s.plus(v), new Decimal(0));

/**
 * The writes of an order change, inside its transaction and after every check passed: the split-off order (pretix
 * `_create_split_order`: new code and secrets, the invoice address and the non-payment fees copied, paid by
 * offsetting the original's surplus when it has one), the changed positions and fees (one statement each), the
 * new positions and fees, the live seats, the order's total and status (pretix `_check_paid_price_change`), the
 * log entries (one statement; webhooks follow from them) and the order-changed mail. A fixed number of
 * statements whatever the order's size.
 */
@Injectable()
export class OrderChangeWriter {
  constructor(
    private readonly queries: OrderChangeQueries,
    private readonly orders: OrderWriter,
    private readonly audit: AuditLogService,
    private readonly mail: MailOutboxService,
  ) {}

  /** @returns the ids of the new positions (in request order) and the split-off order, if any */
  async write(
    em: EntityManager,
    actor: OrderActor,
    order: Order,
    plan: ChangePlan,
    req: ChangeRequest,
    now: Date,
  ): Promise<{ added: number[]; split: Order | null }> {
    const lines = [...plan.lines.values()];
    const split = lines.some((l) => l.split) ? await this.split(em, actor, order, plan, now) : null;
    await this.queries.updatePositions(
      em,
      lines.filter((l) => l.dirty).map((l) => toUpdate(l.after)),
    );
    const live = holdsPlaces(order.status);
    for (const a of plan.added) a.draft.values.liveSeatId = live ? a.draft.values.seatId : null;
    const parents = new Map(lines.map((l) => [l.before.positionid, l.before.id]));
    const inserted = await this.orders.addPositions(
      em,
      order.id,
      plan.added.map((a) => a.draft),
      parents,
    );
    const fees = [...plan.fees.values()];
    await this.queries.updateFees(
      em,
      fees
        .filter((f) => f.dirty)
        .map((f) => ({
          id: f.before.id,
          value: f.after.value,
          tax_rate: f.after.taxRate,
          tax_value: f.after.taxValue,
          tax_rule_id: f.after.taxRuleId,
          tax_code: f.after.taxCode,
          canceled: f.after.canceled,
        })),
    );
    const feeIds = await this.insertFees(em, order.id, plan.addedFees);
    const seated = lines.some((l) => l.dirty && (l.before.seatId !== null || l.after.seatId !== null));
    if (seated) await this.queries.holdSeats(em, split ? [order.id, split.id] : [order.id]);

    const kept = lines.filter((l) => !l.after.canceled && !l.split).map((l) => l.after.price);
    const total = sum([
      ...kept,
      ...inserted.map((p) => p.price),
      ...fees.filter((f) => !f.after.canceled).map((f) => f.after.value),
      ...plan.addedFees.map((f) => f.value),
    ]);
    await this.settle(em, actor, order, total, now);

    const logs: ChangeLog[] = [
      ...plan.logs,
      ...inserted.map((p) => addLog(p)),
      ...feeIds.map((id) => ({ action: 'pretix.event.order.changed.addfee', data: { fee: id } })),
    ];
    await this.audit.recordMany(
      em,
      actor.principal,
      logs.map((l): AuditRecord => ({
        organizerId: actor.event.organizerId,
        eventId: actor.event.id,
        contentType: 'order',
        objectId: l.split ? split!.id : order.id,
        action: l.action,
        data: l.data,
      })),
    );
    if (req.sendEmail) {
      for (const o of split ? [order, split] : [order]) {
        if (!o.email) continue;
        const text = orderChangedMail(i18nText(actor.event.name) || actor.event.slug, o.code);
        await this.mail.enqueue(em, {
          organizerId: actor.event.organizerId,
          eventId: actor.event.id,
          to: o.email,
          subject: text.subject,
          body: text.body,
        });
      }
    }
    return { added: inserted.map((p) => p.id), split };
  }

  /** The order's new total and, when it moved past or below what was paid, its new status (and payment term). */
  private async settle(
    em: EntityManager,
    actor: OrderActor,
    order: Order,
    total: Decimal,
    now: Date,
  ): Promise<void> {
    const payments = await em.find(OrderPayment, { where: { orderId: order.id } });
    const next = statusAfterChange(
      order.status,
      new Decimal(order.total),
      total,
      paidCredit(payments),
      order.requireApproval,
    );
    const change: OrderChange = { total: total.toFixed(2) };
    if (next.status !== order.status) change.status = next.status;
    if (next.newTerm) change.expires = orderExpiry(now, actor.event.timezone);
    await this.orders.change(em, order, change, now);
  }

  /** Inserts the new fees; their ids in order (one statement). */
  private async insertFees(
    em: EntityManager,
    orderId: number,
    fees: ChangePlan['addedFees'],
  ): Promise<number[]> {
    if (fees.length === 0) return [];
    const result = await em.insert(
      OrderFee,
      fees.map((f) => ({ ...f, orderId })),
    );
    return result.identifiers.map((i) => Number(i.id));
  }

  /**
   * The split-off order (pretix `_create_split_order`): the positions marked `split` move to a new order of the
   * same event with a new code, secret and ticket secrets (the old ones are kept as revoked), a copy of the
   * invoice address and of the non-payment fees left on the original. It is paid when the original's confirmed
   * payments exceed what the original still costs by at least its total (an `offsetting` payment on it, an
   * `offsetting` refund on the original), else pending.
   */
  private async split(
    em: EntityManager,
    actor: OrderActor,
    order: Order,
    plan: ChangePlan,
    now: Date,
  ): Promise<Order> {
    const lines = [...plan.lines.values()];
    const moving = lines.filter((l) => l.split && !l.after.canceled);
    let code = generateOrderCode();
    for (let i = 0; i < 20 && (await this.queries.codeTaken(em, order.organizerId, code)); i++)
      code = generateOrderCode();
    const fees = [...plan.fees.values()]
      .filter((f) => !f.after.canceled && f.before.feeType !== 'payment')
      .map((f) => f.after);
    const splitTotal = sum([...moving.map((l) => l.after.price), ...fees.map((f) => f.value)]);
    const remaining = sum([
      ...lines.filter((l) => !l.split && !l.after.canceled).map((l) => l.after.price),
      ...plan.added.map((a) => a.draft.values.price),
      ...[...plan.fees.values()].filter((f) => !f.after.canceled).map((f) => f.after.value),
      ...plan.addedFees.map((f) => f.value),
    ]);
    const payments = await em.find(OrderPayment, { where: { orderId: order.id } });
    const surplus = Decimal.max(paidCredit(payments).minus(remaining), 0);
    const offset = Decimal.min(surplus, splitTotal);
    const paid = offset.gte(splitTotal) && !order.requireApproval;
    const address = await em.findOne(InvoiceAddress, { where: { orderId: order.id } });
    const { id: _id, ...orderValues } = order;
    const { order: created } = await this.orders.create(em, {
      order: {
        ...orderValues,
        code,
        secret: generateOrderSecret(),
        datetime: now,
        lastModified: now,
        status: paid ? 'p' : 'n',
        total: splitTotal.toFixed(2),
        expires: !paid && order.status === 'p' ? orderExpiry(now, actor.event.timezone) : order.expires,
      },
      positions: [],
      fees: fees.map((f) => ({
        feeType: f.feeType,
        value: f.value,
        description: f.description,
        internalType: f.internalType,
        taxRate: f.taxRate,
        taxValue: f.taxValue,
        taxRuleId: f.taxRuleId,
        taxCode: f.taxCode,
        canceled: false,
        canceledWithOrder: false,
      })),
      address: address ? withoutKeys(address) : null,
    });
    if (offset.gt(0)) {
      await this.orders.addPayment(em, {
        orderId: created.id,
        localId: 1,
        state: 'confirmed',
        amount: offset.toFixed(2),
        provider: 'offsetting',
        created: now,
        paymentDate: now,
        info: { orders: [order.code] },
      });
      const refunds = await em.find(OrderRefund, { where: { orderId: order.id }, select: { localId: true } });
      await em.insert(OrderRefund, {
        orderId: order.id,
        localId: Math.max(0, ...refunds.map((r) => r.localId)) + 1,
        state: 'done',
        source: 'admin',
        amount: offset.toFixed(2),
        paymentId: null,
        provider: 'offsetting',
        created: now,
        executionDate: now,
        comment: null,
        info: { orders: [created.code] },
      });
    }
    const revoked: { positionId: number; secret: string }[] = [];
    for (const l of moving) {
      revoked.push({ positionId: l.before.id, secret: l.after.secret });
      l.after.orderId = created.id;
      l.after.secret = generatePositionSecret();
      plan.logs.push({
        action: 'pretix.event.order.changed.split',
        data: {
          position: l.before.id,
          positionid: l.before.positionid,
          old_item: l.before.itemId,
          old_variation: l.before.variationId,
          old_price: l.before.price,
          new_order: created.code,
        },
      });
    }
    await this.queries.revokeSecrets(em, order.eventId, revoked);
    plan.logs.push({
      action: 'pretix.event.order.changed.split_from',
      data: { original_order: order.code },
      split: true,
    });
    return created;
  }
}

/** The written columns of a position. */
function toUpdate(p: OrderPosition): PositionUpdate {
  return {
    id: p.id,
    order_id: p.orderId,
    item_id: p.itemId,
    variation_id: p.variationId,
    subevent_id: p.subeventId,
    seat_id: p.seatId,
    price: p.price,
    tax_rate: p.taxRate,
    tax_value: p.taxValue,
    tax_rule_id: p.taxRuleId,
    tax_code: p.taxCode,
    valid_from: isoUtc(p.validFrom),
    valid_until: isoUtc(p.validUntil),
    secret: p.secret,
    canceled: p.canceled,
    attendee_name_parts: p.attendeeNameParts,
    attendee_email: p.attendeeEmail,
    company: p.company,
    street: p.street,
    zipcode: p.zipcode,
    city: p.city,
    country: p.country,
    state: p.state,
  };
}

/** pretix's `pretix.event.order.changed.add` entry of a new position. */
function addLog(p: OrderPosition): ChangeLog {
  return {
    action: 'pretix.event.order.changed.add',
    data: {
      position: p.id,
      item: p.itemId,
      variation: p.variationId,
      addon_to: p.addonToId,
      price: p.price,
      positionid: p.positionid,
      membership: null,
      subevent: p.subeventId,
      seat: p.seatId,
      valid_from: isoUtc(p.validFrom),
      valid_until: isoUtc(p.validUntil),
    },
  };
}

/** A row's values without its keys (a copy for another order). */
function withoutKeys(a: InvoiceAddress): Omit<InvoiceAddress, 'id' | 'orderId' | 'order'> {
  const { id: _id, orderId: _orderId, ...rest } = a as InvoiceAddress & { order?: unknown };
  delete (rest as { order?: unknown }).order;
  return rest;
}
