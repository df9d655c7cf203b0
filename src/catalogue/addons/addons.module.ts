import { Module } from '@nestjs/common';
import { AddonsController } from './addons.controller';
import { AddonQueries } from './addon.queries';
import { AddonsService } from './addons.service';
import { AuditModule } from '../../audit/audit.module';

/** Catalogue: item add-ons (`E/items/{item}/addons/`); exports the service for inline add-ons on items. */
@Module({
  imports: [AuditModule],
  controllers: [AddonsController],
  providers: [AddonsService, AddonQueries],
  exports: [AddonsService],
})
export class AddonsModule {}
