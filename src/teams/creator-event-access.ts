import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventHooks } from '../organizers/event-hooks';
import { TeamQueries } from './team.queries';

/**
 * An event created through a team token whose team does not reach all events is added to that team's
 * `limit_events`, so the creator can use it (compat §4.2). Registered with the organizers context's
 * {@link EventHooks}; runs in the creating transaction.
 */
@Injectable()
export class CreatorEventAccess implements OnModuleInit {
  constructor(
    private readonly hooks: EventHooks,
    private readonly queries: TeamQueries,
  ) {}

  onModuleInit(): void {
    this.hooks.onEventCreated(async (em, event, principal) => {
      if (principal.kind !== 'team_token') return;
      const grant = principal.grantsFor(event.organizerId)[0];
      if (grant && !grant.allEvents) {
        await this.queries.addLimitEvent(em, grant.teamId, event.id);
      }
    });
  }
}
