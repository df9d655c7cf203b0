import { DynamicModule, Module, Type } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { TasksModule } from '../tasks/tasks.module';
import { QuestionsModule } from '../catalogue/questions/questions.module';
import { CatalogueReadsModule } from '../catalogue/sales/catalogue-reads.module';
import { CheckinSeamModule } from '../orders/checkin-seam/checkin-seam.module';
import { CheckinCoreModule } from './checkin-core.module';
import { Checkin } from './checkin.entity';
import { CheckinList, CheckinListProduct } from './checkin-list.entity';
import { CheckinListSingularController, CheckinListsController } from './checkin-lists.controller';
import { CheckinListsService } from './checkin-lists.service';
import { CheckinDeltaQueries } from './checkin-delta.queries';
import { CheckinPositionsSync } from './checkin-delta.service';
import { CheckinQueries } from './checkin.queries';
import { CheckinPositionsController } from './checkin-positions.controller';
import { CheckinsController } from './checkins.controller';
import { CheckinsService } from './checkins.service';
import { CheckinRpcController, CheckinRpcService } from './checkin-rpc';
import { TenancyModule } from '../organizers/tenancy.module';
import { RedeemService } from './redeem.service';
import { CheckinEventCopy } from './checkin-event-copy';
import { CheckinCopyQueries } from './checkin-event-copy.queries';
import { AutoCheckinModule } from './auto-checkin/auto-checkin.module';
import { RedeemBatchController } from './redeem-batch.controller';
import { RedeemBatchQueries } from './redeem-batch.queries';
import { RedeemBatchService } from './redeem-batch.service';

/**
 * The check-in context (spec "Check-in list"; compat §3.20–§3.22): lists, the positions they admit, redeeming,
 * failed scans, the history of scans and automatic check-in rules ({@link AutoCheckinModule}). It sits above orders: which positions a list admits is asked of the
 * orders core ({@link CheckinPositions}); the scans are this context's own table.
 */
@Module({})
export class CheckinModule {
  /**
   * @param events provides the `CHECKIN_EVENTS` port (`checkin-events.port.ts`): the lists' live streams, which the
   *   redeem, the RPC's annul and automatic check-in tell after their commits (`app.module.ts` hands it the sync
   *   context's publisher)
   */
  static register(events: Type): DynamicModule {
    return {
      module: CheckinModule,
      imports: [
        TypeOrmModule.forFeature([CheckinList, CheckinListProduct, Checkin]),
        AuditModule,
        CatalogueReadsModule,
        QuestionsModule,
        CheckinSeamModule,
        CheckinCoreModule,
        TenancyModule,
        AutoCheckinModule.register(events),
        events,
        TasksModule,
      ],
      controllers: [
        CheckinListsController,
        CheckinListSingularController,
        CheckinPositionsController,
        CheckinsController,
        CheckinRpcController,
        RedeemBatchController,
      ],
      providers: [
        CheckinQueries,
        CheckinListsService,
        CheckinsService,
        RedeemService,
        CheckinRpcService,
        CheckinEventCopy,
        CheckinCopyQueries,
        RedeemBatchService,
        RedeemBatchQueries,
        CheckinPositionsSync,
        CheckinDeltaQueries,
      ],
      exports: [CheckinListsService],
    };
  }
}
