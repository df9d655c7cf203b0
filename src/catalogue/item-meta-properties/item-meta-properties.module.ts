import { Module } from '@nestjs/common';
import { AuditModule } from '../../audit/audit.module';
import { EVENT_ITEM_META } from '../../organizers/event-item-meta.port';
import { ItemMetaPropertiesController } from './item-meta-properties.controller';
import { ItemMetaPropertiesService } from './item-meta-properties.service';
import { ItemMetaPropertyQueries } from './item-meta-property.queries';

/**
 * Item meta properties (`E/item_meta_properties/`): the provider of the tenancy roots' EVENT_ITEM_META port
 * (handed to `OrganizersModule.register` by the composition roots) and of the `meta_data` checks of items and
 * variations.
 */
@Module({
  imports: [AuditModule],
  controllers: [ItemMetaPropertiesController],
  providers: [
    ItemMetaPropertiesService,
    ItemMetaPropertyQueries,
    { provide: EVENT_ITEM_META, useExisting: ItemMetaPropertiesService },
  ],
  exports: [ItemMetaPropertiesService, EVENT_ITEM_META],
})
export class ItemMetaPropertiesModule {}
