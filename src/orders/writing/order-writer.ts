import { Injectable } from '@nestjs/common';
import { EntityManager, QueryFailedError } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { FieldErrors } from '../../common/errors';
import { insertInChunks } from '../../common/persistence/chunked-insert';
import { AnswerQueries } from '../answers/answer.queries';
import type { ValidatedAnswer } from '../answers/answers.rules';
import { InvoiceAddress } from '../entities/invoice-address.entity';
import { OrderFee } from '../entities/order-fee.entity';
import { OrderPayment } from '../entities/order-payment.entity';
import { OrderPosition } from '../entities/order-position.entity';
import { isSeatIndexViolation, SeatTakenError } from '../seats/seat-taken';
import { Order, OrderStatus } from '../entities/order.entity';
import { OrderWriterQueries } from './order-writer.queries';
import { throwPositions } from './sales.rules';

/** Unique index deciding order-code races: (organizer_id, code). */
export const ORDER_CODE_INDEX = 'uq_orders_organizer_code';
/** Unique index deciding ticket-secret races: (event_id, secret). */
const SECRET_INDEX = 'uq_order_position_event_secret';

export const SECRET_EXISTS = 'You cannot assign a position secret that already exists.';

/** Column values of a row to insert (no id, no relations, no columns that only triggers write). */
export type Values<T> = Omit<
  T,
  'id' | 'order' | 'event' | 'item' | 'variation' | 'taxRule' | 'voucher' | 'discount' | 'addonTo' | 'exited'
>;

/** A position to insert: its values (`addonToId` is the parent's `positionid`), answers, and whether a secret was sent. */
export interface NewPosition {
  values: Omit<Values<OrderPosition>, 'orderId'>;
  answers: readonly ValidatedAnswer[];
  secretSent: boolean;
}

/** An order to insert with everything hanging on it. */
export interface NewOrder {
  order: Values<Order>;
  positions: readonly NewPosition[];
  fees: readonly Omit<Values<OrderFee>, 'orderId'>[];
  address: Omit<Values<InvoiceAddress>, 'orderId'> | null;
}

/**
 * A change of an order's state (compat §4.4 "Actions"): what {@link OrderWriter.change} applies, in this order:
 * positions, fees, an added fee, then the order row.
 */
export interface OrderChange {
  status?: OrderStatus;
  /**
   * `cancel`: the active positions become canceled, marked `canceled_with_order`; `restore`: the positions so
   * marked are active again (the mark cleared); positions canceled on their own stay canceled.
   */
  positions?: 'cancel' | 'restore';
  /** `cancel`: the active fees become canceled, marked `canceled_with_order`; `restore`: the fees so marked. */
  fees?: 'cancel' | 'restore';
  /** A fee added after the fees changed (the cancellation fee). */
  addFee?: Omit<Values<OrderFee>, 'orderId'>;
  expires?: Date;
  total?: string;
  requireApproval?: boolean;
  cancellationDate?: Date | null;
}

/** Fields of an order PATCH may change (compat §4.4). */
export type OrderDetails = Pick<
  Order,
  | 'email'
  | 'phone'
  | 'locale'
  | 'comment'
  | 'checkinAttention'
  | 'checkinText'
  | 'customFollowupAt'
  | 'validIfPending'
  | 'apiMeta'
  | 'pluginData'
>;

/**
 * Every write of the orders' rows: orders, positions, answers, fees, invoice addresses and payments. Order and
 * position states change only through {@link create}, {@link change} and {@link delete}: this is where counts
 * that follow the states (the maintained quota counts, architecture.md "Concurrency") hook in. All methods run on
 * the caller's `em`, inside its transaction, with a fixed number of statements.
 */
@Injectable()
export class OrderWriter {
  constructor(
    private readonly queries: OrderWriterQueries,
    private readonly answers: AnswerQueries,
  ) {}

  /**
   * Inserts an order with its positions (one statement per 65,535 bind parameters, {@link insertInChunks}; ids
   * taken from the sequence first so that they follow
   * `positionid` and add-ons point at their parents), answers, fees and invoice address.
   * @returns the order (with its id) and the positions as inserted
   * @throws ValidationFailed `{"positions": [...]}` when a sent secret was taken concurrently
   */
  async create(em: EntityManager, draft: NewOrder): Promise<{ order: Order; positions: OrderPosition[] }> {
    const order = em.create(Order, draft.order);
    await em.insert(Order, order as QueryDeepPartialEntity<Order>);
    const positions = await this.insertPositions(em, order.id, draft.positions);
    await this.answers.insert(
      em,
      draft.positions.flatMap((p, i) =>
        p.answers.map((answer) => ({ orderPositionId: positions[i].id, cartPositionId: null, answer })),
      ),
    );
    if (draft.fees.length > 0) {
      await em.insert(
        OrderFee,
        draft.fees.map((f) => ({ ...f, orderId: order.id })),
      );
    }
    if (draft.address) {
      await em.insert(InvoiceAddress, {
        ...draft.address,
        orderId: order.id,
      });
    }
    return { order, positions };
  }

  /**
   * Applies a state change to a locked order: positions, fees, an added fee, then the order row with
   * `last_modified = now` (also on `order`, which is updated in place).
   */
  async change(em: EntityManager, order: Order, change: OrderChange, now: Date): Promise<void> {
    if (change.positions) {
      const cancel = change.positions === 'cancel';
      await em.update(
        OrderPosition,
        cancel ? { orderId: order.id, canceled: false } : { orderId: order.id, canceledWithOrder: true },
        { canceled: cancel, canceledWithOrder: cancel },
      );
    }
    if (change.fees) {
      const cancel = change.fees === 'cancel';
      await em.update(
        OrderFee,
        cancel ? { orderId: order.id, canceled: false } : { orderId: order.id, canceledWithOrder: true },
        { canceled: cancel, canceledWithOrder: cancel },
      );
    }
    if (change.addFee) await em.insert(OrderFee, { ...change.addFee, orderId: order.id });
    if (change.status !== undefined) order.status = change.status;
    if (change.expires !== undefined) order.expires = change.expires;
    if (change.total !== undefined) order.total = change.total;
    if (change.requireApproval !== undefined) order.requireApproval = change.requireApproval;
    if (change.cancellationDate !== undefined) order.cancellationDate = change.cancellationDate;
    order.lastModified = now;
    if (change.status !== undefined || change.positions) await this.holdSeats(em, order);
    await em.update(
      Order,
      { id: order.id },
      {
        status: order.status,
        expires: order.expires,
        total: order.total,
        requireApproval: order.requireApproval,
        cancellationDate: order.cancellationDate,
        lastModified: order.lastModified,
      },
    );
  }

  /**
   * Makes the order's seated positions hold their seats exactly while the order is pending or paid and the
   * position active (`live_seat_id`; README "Selling without overselling"); one statement. Reviving an order whose
   * seat was sold meanwhile violates the live-seat index: {@link SeatTakenError} (400).
   */
  private async holdSeats(em: EntityManager, order: Order): Promise<void> {
    const live = order.status === 'n' || order.status === 'p';
    try {
      await this.queries.holdSeats(em, order.id, live);
    } catch (err) {
      if (isSeatIndexViolation(err)) throw new SeatTakenError();
      throw err;
    }
  }

  /** Writes the PATCH fields of an order and moves `last_modified` (also on `order`). */
  async updateDetails(em: EntityManager, order: Order, details: OrderDetails, now: Date): Promise<void> {
    Object.assign(order, details, { lastModified: now });
    await em.update(Order, { id: order.id }, {
      ...details,
      lastModified: now,
    } as QueryDeepPartialEntity<Order>);
  }

  /** Replaces the invoice address (kept row, all fields rewritten), creates it, or removes it for null. */
  async replaceAddress(
    em: EntityManager,
    orderId: number,
    values: Omit<Values<InvoiceAddress>, 'orderId'> | null,
  ): Promise<void> {
    if (!values) {
      await em.delete(InvoiceAddress, { orderId });
      return;
    }
    const existing = await em.findOne(InvoiceAddress, { where: { orderId } });
    if (existing) {
      await em.update(
        InvoiceAddress,
        { id: existing.id },
        {
          ...values,
        },
      );
    } else {
      await em.insert(InvoiceAddress, { ...values, orderId });
    }
  }

  /**
   * Inserts positions into an existing order (an order change, compat §4.4 "Changing order contents") with their
   * answers, as {@link create} does; `addonToId` of a draft is a `positionid`, among the drafts or, through
   * `parents` (positionid → id), among the order's existing positions.
   * @throws ValidationFailed `{"positions": [...]}` when a sent secret was taken concurrently
   */
  async addPositions(
    em: EntityManager,
    orderId: number,
    drafts: readonly NewPosition[],
    parents: ReadonlyMap<number, number>,
  ): Promise<OrderPosition[]> {
    if (drafts.length === 0) return [];
    const positions = await this.insertPositions(em, orderId, drafts, parents);
    await this.answers.insert(
      em,
      drafts.flatMap((p, i) =>
        p.answers.map((answer) => ({ orderPositionId: positions[i].id, cartPositionId: null, answer })),
      ),
    );
    return positions;
  }

  /** Deletes an order; positions, answers, fees, payments and address go with it (foreign keys cascade). */
  async delete(em: EntityManager, order: Order): Promise<void> {
    await em.delete(Order, { id: order.id });
  }

  /** Inserts a payment. */
  async addPayment(em: EntityManager, values: Values<OrderPayment>): Promise<OrderPayment> {
    return em.save(em.create(OrderPayment, values));
  }

  /** Sets the state (and payment date, when given) of one payment; also on `payment`. */
  async setPaymentState(
    em: EntityManager,
    payment: OrderPayment,
    state: string,
    paymentDate?: Date,
  ): Promise<void> {
    payment.state = state;
    if (paymentDate) payment.paymentDate = paymentDate;
    await em.update(OrderPayment, { id: payment.id }, { state, ...(paymentDate ? { paymentDate } : {}) });
  }

  /** Moves every payment of the order in state `from` to state `to` (one statement). */
  async movePayments(em: EntityManager, orderId: number, from: string, to: string): Promise<void> {
    await em.update(OrderPayment, { orderId, state: from }, { state: to });
  }

  private async insertPositions(
    em: EntityManager,
    orderId: number,
    drafts: readonly NewPosition[],
    parents: ReadonlyMap<number, number> = new Map(),
  ): Promise<OrderPosition[]> {
    const rows = await this.queries.reservePositionIds(em, drafts.length);
    const ids = rows.map((r) => r.id).sort((a, b) => a - b);
    const positions = drafts.map((d, i) => em.create(OrderPosition, { ...d.values, id: ids[i], orderId }));
    const idOf = new Map(positions.map((p) => [p.positionid, p.id]));
    for (const p of positions)
      if (p.addonToId !== null) p.addonToId = idOf.get(p.addonToId) ?? parents.get(p.addonToId)!;
    try {
      // With an explicit column list TypeORM writes the preassigned ids (it leaves serial ids out otherwise).
      // Chunked below PostgreSQL's 65,535 bind parameters per statement (every column of every row is one).
      const columns = em.connection
        .getMetadata(OrderPosition)
        .columns.filter((c) => c.isInsert)
        .map((c) => c.propertyPath);
      await insertInChunks(positions, columns.length, (chunk) =>
        this.queries.insertPositions(em, columns, chunk),
      );
    } catch (err) {
      const driver =
        err instanceof QueryFailedError ? (err.driverError as { code?: string; constraint?: string }) : {};
      if (driver.code === '23505' && driver.constraint === SECRET_INDEX) {
        throwPositions(drafts.map((d): FieldErrors => (d.secretSent ? { secret: [SECRET_EXISTS] } : {})));
      }
      throw err;
    }
    return positions;
  }
}
