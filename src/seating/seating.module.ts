import { DynamicModule, Module, Type } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { EVENT_SEATING } from '../organizers/event-seating.port';
import { TenancyModule } from '../organizers/tenancy.module';
import { EventSeatingService } from './event-seating';
import { Seat } from './seat.entity';
import { SeatingPlan } from './seating-plan.entity';
import { SeatingPlansController } from './seating-plans.controller';
import { SeatingPlansService } from './seating-plans.service';
import { SeatsController } from './seats.controller';
import { SubEventSeatsController } from './subevent-seats.controller';
import { SeatsService } from './seats.service';
import { SeatSalesModule } from './seat-sales.module';
import { SeatingPlanQueries } from './seating-plan.queries';

/**
 * The seating context (architecture.md): seating plans of organizers and the seats of events generated from
 * them; answers the tenancy roots' EVENT_SEATING port (`app.module.ts` hands this module to
 * `OrganizersModule.register`); seat holders come from the SEAT_HOLDERS port ({@link SeatingModule.register}).
 */
@Module({})
export class SeatingModule {
  /**
   * The seating module with `ports`, the module providing the SEAT_HOLDERS port (the orders' core;
   * `app.module.ts` hands it, as for the catalogue).
   */
  static register(ports: Type<unknown> | DynamicModule): DynamicModule {
    return {
      module: SeatingModule,
      imports: [
        ports,
        AuditModule,
        TenancyModule,
        SeatSalesModule,
        TypeOrmModule.forFeature([SeatingPlan, Seat]),
      ],
      controllers: [SeatingPlansController, SeatsController, SubEventSeatsController],
      providers: [
        SeatingPlanQueries,
        SeatingPlansService,
        SeatsService,
        EventSeatingService,
        { provide: EVENT_SEATING, useExisting: EventSeatingService },
      ],
      exports: [SeatingPlansService, EVENT_SEATING],
    };
  }
}
