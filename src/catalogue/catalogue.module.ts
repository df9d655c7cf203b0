import { DynamicModule, Module } from '@nestjs/common';
import { TenancyModule } from '../organizers/tenancy.module';
import { AddonsModule } from './addons/addons.module';
import { BundlesModule } from './bundles/bundles.module';
import type { PortsModule } from './catalogue-ports';
import { CategoriesController } from './categories/categories.controller';
import { CategoriesService } from './categories/categories.service';
import { CategoryQueries } from './categories/category.queries';
import { DiscountsModule } from './discounts/discounts.module';
import { ItemMetaPropertiesModule } from './item-meta-properties/item-meta-properties.module';
import { ItemsController } from './items/items.controller';
import { ItemQueries } from './items/item.queries';
import { ItemsService } from './items/items.service';
import { MembershipTypesModule } from './membership-types/membership-types.module';
import { ProgramTimesModule } from './program-times/program-times.module';
import { QuestionsModule } from './questions/questions.module';
import { QuotaGoLiveCheck } from './quota-go-live-check';
import { CatalogueEventCopy } from './catalogue-event-copy';
import { CatalogueCopyQueries } from './catalogue-event-copy.queries';
import { QuotaQueries } from './quotas/quota.queries';
import { QuotasModule } from './quotas/quotas.module';
import { TaxRulesModule } from './tax-rules/tax-rules.module';
import { VariationsModule } from './variations/variations.module';
import { VouchersModule } from './vouchers/vouchers.module';
import { AuditModule } from '../audit/audit.module';

/**
 * The event catalogue: categories and items here; each further resource (questions, variations, add-ons,
 * bundles, program times, item meta properties, tax rules, discounts, quotas, vouchers, membership types) in its
 * own module.
 */
@Module({
  imports: [AuditModule],
})
export class CatalogueModule {
  /**
   * @param ports the module that provides the catalogue's ports (`CATALOGUE_PORTS`: quota availability,
   *   voucher holds of carts, usage of items, tax rules, discounts, membership types); the sales side's
   *   OrdersCoreModule in the API
   */
  static register(ports: PortsModule): DynamicModule {
    return {
      module: CatalogueModule,
      imports: [
        ports,
        TenancyModule,
        QuestionsModule,
        VariationsModule.register(ports),
        AddonsModule,
        BundlesModule,
        ProgramTimesModule,
        ItemMetaPropertiesModule,
        TaxRulesModule.register(ports),
        DiscountsModule.register(ports),
        QuotasModule.register(ports),
        VouchersModule.register(ports),
        MembershipTypesModule.register(ports),
      ],
      controllers: [CategoriesController, ItemsController],
      providers: [
        CategoriesService,
        ItemsService,
        QuotaGoLiveCheck,
        CatalogueEventCopy,
        CatalogueCopyQueries,
        CategoryQueries,
        ItemQueries,
        QuotaQueries,
      ],
    };
  }
}
