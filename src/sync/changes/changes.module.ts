import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AuditModule } from '../../audit/audit.module';
import { TenancyModule } from '../../organizers/tenancy.module';
import { ChangeFeedController } from './change-feed.controller';
import { ChangeFeedQueries } from './change-feed.queries';
import { ChangeFeedService } from './change-feed.service';
import { ChangeRenderers } from './change-renderers';
import { ChangeSequencer } from './change-sequencer.service';

/** The sequencer of the change feed (API and worker: the worker's tick numbers and prunes). */
@Module({
  imports: [AuditModule],
  providers: [ChangeFeedQueries, ChangeSequencer],
  exports: [ChangeSequencer, ChangeFeedQueries],
})
export class ChangeSequencerModule {}

/**
 * The change feed in the API (`GET O/changes/`, issue 27 §1): its renderers find the resources' services in the
 * application's container (every context's module is loaded in the API).
 */
@Module({
  imports: [DiscoveryModule, ChangeSequencerModule, TenancyModule],
  controllers: [ChangeFeedController],
  providers: [ChangeFeedService, ChangeRenderers],
})
export class ChangeFeedModule {}
