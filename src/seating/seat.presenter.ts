import type { Seat } from './seat.entity';
import { ApiInt } from '../common/http/api-schemas';

/**
 * Wire form of a seat (compat §3.18). `orderposition`, `cartposition` and `voucher` name what reserves the seat;
 * orders, carts and vouchers take seats with the rest of issue 10, so they are null for now.
 */
export class SeatJson {
  @ApiInt()
  id!: number;
  @ApiInt({ nullable: true })
  subevent!: number | null;
  zone_name!: string;
  row_name!: string;
  row_label!: string | null;
  seat_number!: string;
  seat_label!: string | null;
  seat_guid!: string;
  @ApiInt({ nullable: true })
  product!: number | null;
  blocked!: boolean;
  @ApiInt({ nullable: true })
  orderposition!: number | null;
  @ApiInt({ nullable: true })
  cartposition!: number | null;
  @ApiInt({ nullable: true })
  voucher!: number | null;
}

/** Entity to wire object. */
export function toSeatJson(seat: Seat): SeatJson {
  return {
    id: seat.id,
    subevent: seat.subeventId,
    zone_name: seat.zoneName,
    row_name: seat.rowName,
    row_label: seat.rowLabel,
    seat_number: seat.seatNumber,
    seat_label: seat.seatLabel,
    seat_guid: seat.seatGuid,
    product: seat.productId,
    blocked: seat.blocked,
    orderposition: null,
    cartposition: null,
    voucher: null,
  };
}
