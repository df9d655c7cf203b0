import { ApiDateTime, ApiInt, ApiMoney } from '../../common/http/api-schemas';
import { isoUtc } from '../../common/values/datetime';
import { toMoney } from '../../common/values/money';
import type { CartPosition } from '../carts/cart-position.entity';
import type { PositionSeatJson } from './order-parts.presenter';
import { AnswerJson, nameFromParts, seatStub } from './order.presenter';

/** A cart position (spec "Cart position"; compat §3.2). */
export class CartPositionJson {
  @ApiInt()
  id!: number;
  cart_id!: string;
  @ApiDateTime()
  datetime!: string;
  @ApiDateTime()
  expires!: string;
  @ApiInt()
  item!: number;
  @ApiInt({ nullable: true })
  variation!: number | null;
  @ApiMoney()
  price!: string;
  attendee_name!: string | null;
  attendee_name_parts!: Record<string, string>;
  attendee_email!: string | null;
  @ApiInt({ nullable: true })
  voucher!: number | null;
  @ApiInt({ nullable: true })
  addon_to!: number | null;
  @ApiInt({ nullable: true })
  subevent!: number | null;
  includes_tax!: boolean;
  is_bundled!: boolean;
  answers!: AnswerJson[];
  seat!: PositionSeatJson | null;
}

/** A cart position in its wire form (spec "Cart position"); `seat` defaults to the id-only stub. */
export function toCartPositionJson(
  c: CartPosition,
  answers: AnswerJson[],
  seat?: PositionSeatJson | null,
): CartPositionJson {
  return {
    id: c.id,
    cart_id: c.cartId,
    datetime: isoUtc(c.datetime),
    expires: isoUtc(c.expires),
    item: c.itemId,
    variation: c.variationId,
    price: toMoney(c.price),
    attendee_name: nameFromParts(c.attendeeNameParts),
    attendee_name_parts: c.attendeeNameParts,
    attendee_email: c.attendeeEmail,
    voucher: c.voucherId,
    addon_to: c.addonToId,
    subevent: c.subeventId,
    includes_tax: c.includesTax,
    is_bundled: c.isBundled,
    answers,
    seat: seat !== undefined ? seat : seatStub(c.seatId),
  };
}
