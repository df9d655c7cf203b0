import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventHooks } from '../organizers/event-hooks';
import { QuotaQueries } from './quotas/quota.queries';

/**
 * An event can go live only once it has a quota (compat §4.2: "You need to configure at least one quota to sell
 * anything."). Registered with the organizers context's {@link EventHooks}, so organizers never reads `quota`.
 */
@Injectable()
export class QuotaGoLiveCheck implements OnModuleInit {
  constructor(
    private readonly hooks: EventHooks,
    private readonly quotas: QuotaQueries,
  ) {}

  onModuleInit(): void {
    this.hooks.setGoLiveCheck(async (em, event) => {
      return (await this.quotas.eventHasQuota(em, event.id)) ? null : 'You need to configure at least one quota to sell anything.';
    });
  }
}
