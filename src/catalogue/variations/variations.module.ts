import { Module } from '@nestjs/common';
import { VariationsController } from './variations.controller';
import { VariationsService } from './variations.service';

/** Catalogue: item variations (`E/items/{item}/variations/`); exports the service for inline variations on items. */
@Module({
  controllers: [VariationsController],
  providers: [VariationsService],
  exports: [VariationsService],
})
export class VariationsModule {}
