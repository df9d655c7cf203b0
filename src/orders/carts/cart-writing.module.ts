import { Module } from '@nestjs/common';
import { AuditModule } from '../../audit/audit.module';
import { VOUCHER_CART_HOLDS } from '../../catalogue/vouchers/voucher-cart-holds.port';
import { CartVoucherHolds } from './cart-voucher-holds';
import { CartWriter } from './cart-writer';
import { AnswerQueries } from '../answers/answer.queries';
import { CartPositionQueries } from './cart-position.queries';

/**
 * The writing side of carts without HTTP: {@link CartWriter} (every write of `cart_position`, used by the cart
 * positions, by order creation, which consumes carts, and by the sales usage, which releases the carts of a
 * deleted item) and {@link CartVoucherHolds}, the answer to the catalogue's `VOUCHER_CART_HOLDS` port.
 */
@Module({
  imports: [AuditModule],
  providers: [
    CartWriter,
    CartVoucherHolds,
    CartPositionQueries,
    AnswerQueries,
    { provide: VOUCHER_CART_HOLDS, useExisting: CartVoucherHolds },
  ],
  exports: [CartWriter, CartVoucherHolds, VOUCHER_CART_HOLDS],
})
export class CartWritingModule {}
