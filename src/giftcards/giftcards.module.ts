import { Module } from '@nestjs/common';
import { GiftCardAcceptancesController } from './giftcard-acceptances.controller';
import { GiftCardsCoreModule } from './giftcards-core.module';
import { GiftCardsController } from './giftcards.controller';
import { AuditModule } from '../audit/audit.module';

/** Gift cards over HTTP: `O/giftcards/` and `O/giftcards/acceptance/` (acceptance first: see its controller). */
@Module({
  imports: [AuditModule, GiftCardsCoreModule],
  controllers: [GiftCardAcceptancesController, GiftCardsController],
})
export class GiftCardsModule {}
