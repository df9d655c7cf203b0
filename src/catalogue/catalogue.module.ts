import { Module } from '@nestjs/common';
import { OrganizersModule } from '../organizers/organizers.module';
import { AddonsModule } from './addons/addons.module';
import { BundlesModule } from './bundles/bundles.module';
import { CategoriesController } from './categories/categories.controller';
import { CategoriesService } from './categories/categories.service';
import { DiscountsModule } from './discounts/discounts.module';
import { ItemsController } from './items/items.controller';
import { ItemsService } from './items/items.service';
import { MembershipTypesModule } from './membership-types/membership-types.module';
import { QuestionsModule } from './questions/questions.module';
import { QuotaGoLiveCheck } from './quota-go-live-check';
import { QuotasModule } from './quotas/quotas.module';
import { TaxRulesModule } from './tax-rules/tax-rules.module';
import { VariationsModule } from './variations/variations.module';
import { VouchersModule } from './vouchers/vouchers.module';

/**
 * The event catalogue: categories and items here; each further resource (questions, variations, add-ons,
 * bundles, tax rules, discounts, quotas, vouchers, membership types) in its own module.
 */
@Module({
  imports: [
    OrganizersModule,
    QuestionsModule,
    VariationsModule,
    AddonsModule,
    BundlesModule,
    TaxRulesModule,
    DiscountsModule,
    QuotasModule,
    VouchersModule,
    MembershipTypesModule,
  ],
  controllers: [CategoriesController, ItemsController],
  providers: [CategoriesService, ItemsService, QuotaGoLiveCheck],
  exports: [CategoriesService, ItemsService, QuotasModule],
})
export class CatalogueModule {}
