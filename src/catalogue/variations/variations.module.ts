import { DynamicModule, Module } from '@nestjs/common';
import { PortsModule, withPorts } from '../catalogue-ports';
import { VariationsController } from './variations.controller';
import { ItemQueries } from '../items/item.queries';
import { VariationQueries } from './variation.queries';
import { VariationsService } from './variations.service';
import { AuditModule } from '../../audit/audit.module';
import { ItemMetaPropertiesModule } from '../item-meta-properties/item-meta-properties.module';
import { TenancyModule } from '../../organizers/tenancy.module';

/** Catalogue: item variations (`E/items/{item}/variations/`); exports the service for inline variations on items. Deletion asks the ITEM_USAGE port, provided by `ports` (mandatory). */
@Module({
  imports: [AuditModule],
})
export class VariationsModule {
  static register(ports: PortsModule): DynamicModule {
    return withPorts(VariationsModule, ports, {
      imports: [ItemMetaPropertiesModule, TenancyModule],
      controllers: [VariationsController],
      providers: [VariationsService, VariationQueries, ItemQueries],
      exports: [VariationsService],
    });
  }
}
