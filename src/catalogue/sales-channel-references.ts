import { Module } from '@nestjs/common';
import { SALES_CHANNEL_REFERENCES } from '../organizers/sales-channels/sales-channel-usage.port';
import { CatalogueSalesChannelReferences } from './sales-channel-references.queries';

/** Provides SALES_CHANNEL_REFERENCES (handed to `OrganizersModule.register` by the composition roots). */
@Module({
  providers: [
    CatalogueSalesChannelReferences,
    { provide: SALES_CHANNEL_REFERENCES, useExisting: CatalogueSalesChannelReferences },
  ],
  exports: [SALES_CHANNEL_REFERENCES],
})
export class SalesChannelReferencesModule {}
