import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Event } from '../../organizers/event.entity';
import { seatKey } from '../../seating/seat-sales.service';
import { SeatHolds } from '../seats/seat-holds';
import { ChangePlan, orderError } from './order-change.model';
import { CHANGE_MESSAGES } from './order-change.rules';

const KEEP = '#keep:';

/**
 * The seats of an order change (pretix `change_seat`, `_check_seats`, `add_position`'s seat rules), read under
 * the seat locks (after the vouchers, before the quotas; README "Locks"): a new position of a seated product needs
 * a seat and an unseated one takes none; a seat named must exist on the position's date, and must not be blocked
 * or held by anyone but the positions of this order that give it up in the same change (so two positions may
 * swap seats). Sets the seat ids on the plan and logs `pretix.event.order.changed.seat`. The live-seat index is
 * the database's backstop.
 */
@Injectable()
export class OrderChangeSeats {
  constructor(private readonly holds: SeatHolds) {}

  /** @throws ValidationFailed pretix's seat message (bare list) */
  async resolve(em: EntityManager, event: Event, plan: ChangePlan, now: Date): Promise<void> {
    if (plan.seatRequests.length === 0) return;
    const keepIds = plan.seatRequests
      .filter((r) => r.guid.startsWith(KEEP))
      .map((r) => Number(r.guid.slice(KEEP.length)));
    const keepGuids = keepIds.length > 0 ? await this.holds.guids(em, keepIds) : new Map<number, string>();
    const guidOf = (g: string) =>
      g.startsWith(KEEP) ? (keepGuids.get(Number(g.slice(KEEP.length))) ?? '') : g;
    const wanted = plan.seatRequests
      .filter((r) => guidOf(r.guid) !== '')
      .map((r) => ({ subeventId: r.subeventId, guid: guidOf(r.guid) }));
    const itemIds = plan.added.map((a) => a.product.itemId);
    const refs = await this.holds.refs(em, event, itemIds, wanted, { now, lock: true });
    // Seats this order's positions hold now: free for the change as long as no two positions end on one seat.
    const own = new Set([...plan.lines.values()].map((l) => l.before.liveSeatId).filter((s) => s !== null));
    const names = new Map([...refs.seats.values()].map((s) => [s.id, s.name]));
    for (const r of plan.seatRequests) {
      const guid = guidOf(r.guid);
      const added = r.addedIndex === null ? null : plan.added[r.addedIndex];
      if (added) {
        const seated = refs.seated.has(seatKey(r.subeventId, added.product.itemId));
        if (guid === '') {
          if (seated) throw orderError(CHANGE_MESSAGES.seatRequired);
          continue;
        }
        if (!seated) throw orderError(CHANGE_MESSAGES.seatForbidden);
      }
      if (guid === '') {
        this.setLineSeat(plan, r.lineId!, null, names);
        continue;
      }
      const seat = refs.seats.get(seatKey(r.subeventId, guid));
      if (!seat) throw orderError(CHANGE_MESSAGES.seatInvalid);
      const line = r.lineId === null ? null : plan.lines.get(r.lineId)!;
      const unchanged = line !== null && line.before.seatId === seat.id;
      if (!unchanged && (seat.blocked || (refs.held.has(seat.id) && !own.has(seat.id)))) {
        throw orderError(CHANGE_MESSAGES.seatUnavailable(seat.name));
      }
      if (added) {
        added.seatId = seat.id;
        added.draft.values.seatId = seat.id;
      } else this.setLineSeat(plan, r.lineId!, seat.id, names);
    }
    // No seat may end on two positions of the order.
    const ending = new Map<number, number>();
    const count = (seatId: number | null) => {
      if (seatId !== null) ending.set(seatId, (ending.get(seatId) ?? 0) + 1);
    };
    for (const l of plan.lines.values()) if (!l.after.canceled) count(l.after.seatId);
    for (const a of plan.added) count(a.seatId);
    for (const [seatId, n] of ending) {
      if (n > 1) throw orderError(CHANGE_MESSAGES.seatUnavailable(names.get(seatId) ?? String(seatId)));
    }
  }

  private setLineSeat(
    plan: ChangePlan,
    lineId: number,
    seatId: number | null,
    names: Map<number, string>,
  ): void {
    const line = plan.lines.get(lineId)!;
    if (line.before.seatId === seatId) return;
    plan.logs.push({
      action: 'pretix.event.order.changed.seat',
      data: {
        position: line.before.id,
        positionid: line.before.positionid,
        old_seat:
          line.before.seatId === null ? '-' : (names.get(line.before.seatId) ?? String(line.before.seatId)),
        new_seat: seatId === null ? '-' : (names.get(seatId) ?? String(seatId)),
        old_seat_id: line.before.seatId,
        new_seat_id: seatId,
      },
    });
    line.after.seatId = seatId;
    line.dirty = true;
  }
}
