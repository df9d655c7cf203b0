import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import type { VoucherSeat, VoucherSeats } from '../../catalogue/vouchers/voucher-seats.port';
import { VoucherSeatHolds } from '../../catalogue/vouchers/voucher-seat-holds';
import { toVoucherJson } from '../../catalogue/vouchers/voucher.presenter';
import type { SeatHolder, SeatHolders } from '../../seating/seat-holders.port';
import type { SeatScope } from '../../seating/seat-scope';
import { SeatSales, seatKey } from '../../seating/seat-sales.service';
import { CartPosition } from '../carts/cart-position.entity';
import { SeatHoldQueries } from './seat-hold.queries';
import { OrderPositionReads } from '../presentation/order-position-reads.service';
import { OrderPresentation } from '../presentation/order-presentation.service';
import type { SeatRefs } from './seat.rules';

/**
 * Who holds seats, from the orders' side (their tables): live order positions (`live_seat_id`, set while the
 * order is pending or paid and the position active), cart positions not expired, and vouchers bound to a seat
 * that can still be redeemed (read through the catalogue). Answers the seating context's {@link SeatHolders}
 * port and the vouchers' {@link VoucherSeats} port, and gathers the sales' {@link SeatRefs}.
 */
@Injectable()
export class SeatHolds implements SeatHolders, VoucherSeats {
  constructor(
    private readonly seatSales: SeatSales,
    private readonly voucherHolds: VoucherSeatHolds,
    private readonly positions: OrderPositionReads,
    private readonly presentation: OrderPresentation,
    private readonly queries: SeatHoldQueries,
  ) {}

  /**
   * The seat references of a sale, read under the seat locks when `lock` (lock order: after carts and vouchers,
   * before quotas; README "Locks"): the named seats (locked in id order), the seated products among `itemIds`,
   * and the seats among them held by others (cart positions in `exceptCartPositions` are the order's own).
   * Three statements at most; none when the event has no seats (no dates and no plan) and none is named.
   */
  async refs(
    em: EntityManager,
    event: { id: number; hasSubevents: boolean; seatingPlanId?: number | null },
    itemIds: readonly number[],
    wanted: readonly { subeventId: number | null; guid: string }[],
    opts: {
      now: Date;
      lock: boolean;
      exceptCartPositions?: readonly number[];
      /** Vouchers the request uses: a seat they are bound to is theirs to sell. */
      exceptVouchers?: readonly number[];
    },
  ): Promise<SeatRefs> {
    if (!event.hasSubevents && event.seatingPlanId === null && wanted.length === 0) {
      return { seats: new Map(), seated: new Set(), held: new Set() };
    }
    const seated = await this.seatSales.seatedProducts(em, event.id, itemIds);
    const seats = await this.seatSales.find(em, event.id, wanted, opts.lock);
    const held = await this.held(
      em,
      [...seats.values()].map((s) => s.id),
      opts.now,
      opts.exceptCartPositions ?? [],
      opts.exceptVouchers ?? [],
    );
    return { seats, seated, held };
  }

  /**
   * Seats among `seatIds` held by a live order position, a live cart position not in `except` or a voucher not
   * in `exceptVouchers` (one statement).
   */
  async held(
    em: EntityManager,
    seatIds: readonly number[],
    now: Date,
    except: readonly number[] = [],
    exceptVouchers: readonly number[] = [],
  ): Promise<Set<number>> {
    if (seatIds.length === 0) return new Set();
    const rows = await this.queries.held(em, seatIds, now, except, exceptVouchers);
    return new Set(rows.map((r) => r.seat));
  }

  async lock(
    em: EntityManager,
    eventId: number,
    subeventId: number | null,
    guid: string,
    voucherId: number | null,
    now: Date,
  ): Promise<{ seat: VoucherSeat; held: boolean } | null> {
    const found = (await this.seatSales.find(em, eventId, [{ subeventId, guid }], true)).get(
      seatKey(subeventId, guid),
    );
    if (!found) return null;
    const held = await this.held(em, [found.id], now, [], voucherId === null ? [] : [voucherId]);
    return { seat: { id: found.id, guid: found.guid, productId: found.productId }, held: held.size > 0 };
  }

  async guids(em: EntityManager, seatIds: readonly (number | null)[]): Promise<Map<number, string>> {
    const seats = await this.seatSales.describe(em, seatIds);
    return new Map([...seats].map(([id, s]) => [id, s.seat_guid]));
  }

  /**
   * Deletes expired cart positions holding any of `seatIds` (their add-ons go with them), so that a new cart
   * position can take the seat under the cart index (one statement). Runs under the seat locks.
   */
  async purgeExpiredCarts(em: EntityManager, seatIds: readonly number[], now: Date): Promise<void> {
    if (seatIds.length === 0) return;
    await this.queries.purgeExpiredCarts(em, seatIds, now);
  }

  async ofScope(em: EntityManager, scope: SeatScope, now: Date): Promise<Map<number, SeatHolder>> {
    const rows = await this.queries.ofScope(em, scope, now);
    const out = new Map<number, SeatHolder>();
    for (const r of rows) {
      const holder = out.get(r.seat) ?? { orderposition: null, cartposition: null, voucher: null };
      if (r.kind === 'o') holder.orderposition = r.id;
      else if (r.kind === 'c') holder.cartposition = r.id;
      else holder.voucher = r.id;
      out.set(r.seat, holder);
    }
    return out;
  }

  async expand(
    em: EntityManager,
    ids: { orderposition: number[]; cartposition: number[]; voucher: number[] },
  ): Promise<{
    orderposition: Map<number, object>;
    cartposition: Map<number, object>;
    voucher: Map<number, object>;
  }> {
    const orderposition = new Map<number, object>();
    if (ids.orderposition.length > 0) {
      for (const [id, json] of await this.positions.nested(em, ids.orderposition)) {
        const { seat: _seat, ...rest } = json;
        orderposition.set(id, rest);
      }
    }
    const cartposition = new Map<number, object>();
    if (ids.cartposition.length > 0) {
      const carts = await em.find(CartPosition, { where: { id: In(ids.cartposition) } });
      for (const json of await this.presentation.carts(em, carts)) cartposition.set(json.id, json);
    }
    const voucher = new Map<number, object>();
    const vouchers = await this.voucherHolds.byIds(em, ids.voucher);
    const guids = await this.guids(
      em,
      vouchers.map((v) => v.seatId),
    );
    for (const v of vouchers)
      voucher.set(v.id, toVoucherJson(v, v.seatId === null ? null : (guids.get(v.seatId) ?? null)));
    return { orderposition, cartposition, voucher };
  }
}
