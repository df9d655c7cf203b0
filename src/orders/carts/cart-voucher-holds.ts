import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { VoucherCartHolds } from '../../catalogue/vouchers/voucher-cart-holds.port';
import { CartPositionQueries } from './cart-position.queries';

/** The orders' answer to the vouchers' {@link VoucherCartHolds} port: live cart positions holding vouchers. */
@Injectable()
export class CartVoucherHolds implements VoucherCartHolds {
  constructor(private readonly queries: CartPositionQueries) {}

  async count(
    em: EntityManager,
    voucherIds: readonly number[],
    now: Date,
    except: readonly number[] = [],
  ): Promise<Map<number, number>> {
    if (voucherIds.length === 0) return new Map();
    const rows = await this.queries.voucherHolds(em, voucherIds, now, except);
    return new Map(rows.map((r) => [r.voucher_id, r.n]));
  }
}
