import { Module } from '@nestjs/common';
import { SUBEVENT_PRICES } from '../../organizers/subevents/subevent-prices.port';
import { SubEventPriceQueries } from './subevent-price.queries';
import { SubEventPricesService } from './subevent-prices.service';

/**
 * Price overrides of dates of a series: the provider of the tenancy roots' SUBEVENT_PRICES port (handed to
 * `OrganizersModule.register` by the composition roots) and of the override prices the sales side applies.
 */
@Module({
  providers: [
    SubEventPricesService,
    SubEventPriceQueries,
    { provide: SUBEVENT_PRICES, useExisting: SubEventPricesService },
  ],
  exports: [SubEventPricesService, SUBEVENT_PRICES],
})
export class SubEventPricesModule {}
