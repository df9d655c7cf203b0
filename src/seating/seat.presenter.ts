import type { Seat } from './seat.entity';
import { ApiProperty } from '@nestjs/swagger';
import { ApiInt } from '../common/http/api-schemas';
import type { SeatHolder } from './seat-holders.port';

/**
 * Wire form of a seat (compat §3.18). `orderposition`, `cartposition` and `voucher` name what reserves the seat
 * (ids, or the nested objects with `?expand=`).
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
  /** Id of the live order position holding the seat; the order position object with `?expand=orderposition`. */
  @ApiProperty({ oneOf: [{ type: 'integer' }, { type: 'object' }], nullable: true })
  orderposition!: number | object | null;
  /** Id of the live cart position holding the seat; the cart position object with `?expand=cartposition`. */
  @ApiProperty({ oneOf: [{ type: 'integer' }, { type: 'object' }], nullable: true })
  cartposition!: number | object | null;
  /** Id of the voucher bound to the seat; the voucher object with `?expand=voucher`. */
  @ApiProperty({ oneOf: [{ type: 'integer' }, { type: 'object' }], nullable: true })
  voucher!: number | object | null;
}

/** Entity to wire object, with what holds the seat (ids; none when `holder` is absent). */
export function toSeatJson(seat: Seat, holder?: SeatHolder): SeatJson {
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
    orderposition: holder?.orderposition ?? null,
    cartposition: holder?.cartposition ?? null,
    voucher: holder?.voucher ?? null,
  };
}
