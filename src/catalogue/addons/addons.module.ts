import { Module } from '@nestjs/common';
import { AddonsController } from './addons.controller';
import { AddonsService } from './addons.service';

/** Catalogue: item add-ons (`E/items/{item}/addons/`); exports the service for inline add-ons on items. */
@Module({
  controllers: [AddonsController],
  providers: [AddonsService],
  exports: [AddonsService],
})
export class AddonsModule {}
