import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { VoucherCartHolds } from '../../catalogue/vouchers/voucher-cart-holds.port';

/** The orders' answer to the vouchers' {@link VoucherCartHolds} port: live cart positions holding vouchers. */
@Injectable()
export class CartVoucherHolds implements VoucherCartHolds {
  async count(
    em: EntityManager,
    voucherIds: readonly number[],
    now: Date,
    except: readonly number[] = [],
  ): Promise<Map<number, number>> {
    if (voucherIds.length === 0) return new Map();
    const rows: { voucher_id: number; n: number }[] = await em.query(
      `SELECT voucher_id, count(*)::int AS n FROM cart_position
        WHERE voucher_id = ANY($1) AND expires >= $2 AND NOT (id = ANY($3)) GROUP BY voucher_id`,
      [[...voucherIds], now, [...except]],
    );
    return new Map(rows.map((r) => [r.voucher_id, r.n]));
  }
}
