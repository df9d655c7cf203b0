import { Module } from '@nestjs/common';
import { ReusableMediumQueries } from './reusable-medium.queries';
import { GiftCardsCoreModule } from '../giftcards/giftcards-core.module';
import { OrderPresentationModule } from '../orders/presentation/order-presentation.module';
import { ReusableMediaController } from './reusable-media.controller';
import { ReusableMediaPresentation } from './reusable-media-presentation';
import { ReusableMediaService } from './reusable-media.service';
import { AuditModule } from '../audit/audit.module';
import { CustomersCoreModule } from '../customers/customers-core.module';

/**
 * Reusable media (`O/reusablemedia/`). Sits above gift cards and orders: it links their rows and asks their
 * exported reads (gift cards and acceptances from GiftCardsCoreModule, order positions from OrderPresentationModule).
 */
@Module({
  imports: [AuditModule, GiftCardsCoreModule, OrderPresentationModule, CustomersCoreModule],
  controllers: [ReusableMediaController],
  providers: [ReusableMediumQueries, ReusableMediaService, ReusableMediaPresentation],
})
export class MediaModule {}
