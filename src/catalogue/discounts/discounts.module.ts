import { Module } from '@nestjs/common';
import { DiscountsController } from './discounts.controller';
import { DiscountsService } from './discounts.service';

/**
 * Catalogue: discounts (`E/discounts/`, DELETE also at `E/discount/{id}/`). Sales plug into deletion through the
 * optional `DISCOUNT_USAGE` port (discounts.service.ts).
 */
@Module({
  controllers: [DiscountsController],
  providers: [DiscountsService],
})
export class DiscountsModule {}
