import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { GIFT_CARD_LEDGER } from '../orders/giftcard-payments/gift-card-ledger.port';
import { GiftCardLedgerService } from './giftcard-ledger.service';
import { GiftCardQueries } from './giftcard.queries';

/**
 * Provides the orders' `GIFT_CARD_LEDGER` port ({@link GiftCardLedgerService}): gift card payments and refunds of
 * orders. `app.module.ts` hands this module to `OrdersModule.register`, so orders never import gift cards.
 */
@Module({
  imports: [AuditModule],
  providers: [
    GiftCardQueries,
    GiftCardLedgerService,
    { provide: GIFT_CARD_LEDGER, useExisting: GiftCardLedgerService },
  ],
  exports: [GIFT_CARD_LEDGER],
})
export class GiftCardLedgerModule {}
