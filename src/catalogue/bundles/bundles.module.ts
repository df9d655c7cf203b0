import { Module } from '@nestjs/common';
import { BundlesController } from './bundles.controller';
import { ItemQueries } from '../items/item.queries';
import { BundleQueries } from './bundle.queries';
import { BundlesService } from './bundles.service';
import { AuditModule } from '../../audit/audit.module';

/** Catalogue: item bundles (`E/items/{item}/bundles/`); exports the service for inline bundles on items. */
@Module({
  imports: [AuditModule],
  controllers: [BundlesController],
  providers: [BundlesService, BundleQueries, ItemQueries],
  exports: [BundlesService],
})
export class BundlesModule {}
