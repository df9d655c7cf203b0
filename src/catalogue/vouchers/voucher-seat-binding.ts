import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ErrorCollector } from '../../common/errors';
import { i18nText } from '../../common/values/i18n';
import type { Event } from '../../organizers/event.entity';
import type { SalesCatalogueRows } from '../sales/sales-catalogue.service';
import type { VoucherInput } from './voucher-input.rules';
import type { Voucher } from './voucher.entity';
import { toVoucherJson, VoucherJson } from './voucher.presenter';
import { VOUCHER_SEATS, VoucherSeats } from './voucher-seats.port';

/** pretix's texts of the seat rules of vouchers (compat §3.23). */
export const VOUCHER_SEAT_MESSAGES = {
  needsDate: 'You need to choose a date if you want to select a seat.',
  unknown: (guid: string) => `The specified seat ID "${guid}" does not exist.`,
  quota: 'You need to choose a specific product if you select a seat.',
  once: 'Seat-specific vouchers can only be used once.',
  product: (name: string) => `You need to choose the product "${name}" for this seat.`,
  unavailable: (guid: string) =>
    `The seat "${guid}" is currently unavailable (blocked, already sold or a different voucher).`,
  twiceInRequest: 'Duplicate seat ID in request.',
} as const;

/**
 * Binds vouchers to seats (compat §3.23 `seat`, a seat guid): the seat must exist in the event (in the voucher's
 * date on a series), the voucher must name the seat's product (not a quota) and be usable once, and no live
 * order position, cart position or other voucher may hold the seat. The seat row is locked (after the voucher
 * rows, before quotas: README "Locks"); the partial unique index over `voucher.seat_id` is the backstop. Also
 * fills the `seat` guid of presented vouchers.
 */
@Injectable()
export class VoucherSeatBinding {
  constructor(@Inject(VOUCHER_SEATS) private readonly seats: VoucherSeats) {}

  /**
   * The seat id for `input.seat` (null when none), problems added to `errors` under `seat`.
   * @param voucherId the voucher being changed (it may keep its own seat), null on creation
   */
  async bind(
    em: EntityManager,
    event: Pick<Event, 'id' | 'hasSubevents'>,
    input: VoucherInput,
    refs: Pick<SalesCatalogueRows, 'items'>,
    voucherId: number | null,
    errors: ErrorCollector,
    now: Date,
  ): Promise<number | null> {
    const guid = input.seat;
    if (guid === null || guid === undefined) return null;
    if (event.hasSubevents && input.subevent === null) {
      errors.add('seat', VOUCHER_SEAT_MESSAGES.needsDate);
      return null;
    }
    const found = await this.seats.lock(em, event.id, input.subevent, guid, voucherId, now);
    if (!found) {
      errors.add('seat', VOUCHER_SEAT_MESSAGES.unknown(guid));
      return null;
    }
    const { seat, held } = found;
    if (input.quota !== null) errors.add('seat', VOUCHER_SEAT_MESSAGES.quota);
    else if (input.max_usages > 1) errors.add('seat', VOUCHER_SEAT_MESSAGES.once);
    else if (seat.productId === null || input.item !== seat.productId) {
      const product = seat.productId === null ? undefined : refs.items.get(seat.productId);
      errors.add('seat', VOUCHER_SEAT_MESSAGES.product(product ? i18nText(product.name) : ''));
    } else if (held) errors.add('seat', VOUCHER_SEAT_MESSAGES.unavailable(guid));
    return seat.id;
  }

  /** Vouchers presented with their `seat` guid (one statement for the batch, none without seats). */
  async present(em: EntityManager, vouchers: readonly Voucher[]): Promise<VoucherJson[]> {
    const guids = await this.seats.guids(
      em,
      vouchers.map((v) => v.seatId),
    );
    return vouchers.map((v) => toVoucherJson(v, v.seatId === null ? null : (guids.get(v.seatId) ?? null)));
  }
}
