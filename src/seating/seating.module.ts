import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { TenancyModule } from '../organizers/tenancy.module';
import { SeatingPlan } from './seating-plan.entity';
import { SeatingPlansController } from './seating-plans.controller';
import { SeatingPlansService } from './seating-plans.service';

/** The seating context (architecture.md): seating plans of organizers; the seats of events come next. */
@Module({
  imports: [AuditModule, TenancyModule, TypeOrmModule.forFeature([SeatingPlan])],
  controllers: [SeatingPlansController],
  providers: [SeatingPlansService],
  exports: [SeatingPlansService],
})
export class SeatingModule {}
