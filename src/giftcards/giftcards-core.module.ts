import { Module } from '@nestjs/common';
import { OrderPresentationModule } from '../orders/presentation/order-presentation.module';
import { TenancyModule } from '../organizers/tenancy.module';
import { GiftCardAcceptanceQueries } from './giftcard-acceptance.queries';
import { GiftCardAcceptancesService } from './giftcard-acceptances.service';
import { GiftCardQueries } from './giftcard.queries';
import { GiftCardExportRows } from './giftcard-export-rows';
import { GiftCardListExporter } from './giftcard-list.exporter';
import { GiftCardReads } from './giftcard-reads.service';
import { GiftCardsService } from './giftcards.service';
import { AuditModule } from '../audit/audit.module';

/**
 * The gift card context without HTTP: reads, writes and acceptances, exported for the controllers, the media
 * context (linked gift cards, the cross-organizer lookup) and the CLI (`accept-giftcards`). Order positions
 * (owner tickets) come from the orders context's exported reads.
 */
@Module({
  imports: [AuditModule, OrderPresentationModule, TenancyModule],
  providers: [
    GiftCardQueries,
    GiftCardAcceptanceQueries,
    GiftCardReads,
    GiftCardsService,
    GiftCardAcceptancesService,
    GiftCardExportRows,
    GiftCardListExporter,
  ],
  exports: [GiftCardReads, GiftCardsService, GiftCardAcceptancesService, GiftCardExportRows],
})
export class GiftCardsCoreModule {}
