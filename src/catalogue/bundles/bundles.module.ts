import { Module } from '@nestjs/common';
import { BundlesController } from './bundles.controller';
import { BundlesService } from './bundles.service';
import { AuditModule } from '../../audit/audit.module';

/** Catalogue: item bundles (`E/items/{item}/bundles/`); exports the service for inline bundles on items. */
@Module({
  imports: [AuditModule],
  controllers: [BundlesController],
  providers: [BundlesService],
  exports: [BundlesService],
})
export class BundlesModule {}
