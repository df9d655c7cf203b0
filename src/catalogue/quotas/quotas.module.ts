import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { PortsModule } from '../catalogue-ports';
import { CatalogueSalesModule } from '../sales/catalogue-sales.module';
import { Quota } from './quota.entity';
import { QuotasController } from './quotas.controller';
import { QuotasService } from './quotas.service';
import { AuditModule } from '../../audit/audit.module';

/** Catalogue: quotas (`E/quotas/`) and their availability (through the QuotaAvailability port of `ports`). */
@Module({
  imports: [AuditModule],
})
export class QuotasModule {
  static register(ports: PortsModule): DynamicModule {
    return {
      module: QuotasModule,
      imports: [CatalogueSalesModule.register(ports), TypeOrmModule.forFeature([Quota])],
      controllers: [QuotasController],
      providers: [QuotasService],
    };
  }
}
