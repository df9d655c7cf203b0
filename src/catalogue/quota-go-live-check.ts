import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventHooks } from '../organizers/event-hooks';

/**
 * An event can go live only once it has a quota (compat §4.2: "You need to configure at least one quota to sell
 * anything."). Registered with the organizers context's {@link EventHooks}, so organizers never reads `quota`.
 */
@Injectable()
export class QuotaGoLiveCheck implements OnModuleInit {
  constructor(private readonly hooks: EventHooks) {}

  onModuleInit(): void {
    this.hooks.setGoLiveCheck(async (em, event) => {
      const rows: { any: boolean }[] = await em.query(
        'SELECT EXISTS (SELECT 1 FROM quota WHERE event_id = $1) AS any',
        [event.id],
      );
      return rows[0].any ? null : 'You need to configure at least one quota to sell anything.';
    });
  }
}
