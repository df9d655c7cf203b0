import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Principal } from '../auth/principal';
import type { Event } from './event.entity';

/** Refuses going live with a message, or allows it (null). */
export type GoLiveCheck = (em: EntityManager, event: Event) => Promise<string | null>;

/** Runs inside the transaction that created the event. */
export type EventCreatedHandler = (em: EntityManager, event: Event, principal: Principal) => Promise<void>;

/**
 * What contexts above the tenancy roots contribute to event writes, without organizers naming their tables or
 * importing them (architecture.md "Layout"): the catalogue registers the go-live check (an event needs a quota,
 * compat §4.2), the teams context what happens when an event is created (the creating token's team reaches it).
 * They register at module init; organizers imports neither.
 */
@Injectable()
export class EventHooks {
  private goLive?: GoLiveCheck;
  private readonly created: EventCreatedHandler[] = [];

  setGoLiveCheck(check: GoLiveCheck): void {
    this.goLive = check;
  }

  onEventCreated(handler: EventCreatedHandler): void {
    this.created.push(handler);
  }

  /**
   * @returns the refusal message, or null when the event may go live
   * @throws Error when no context registered the check (a module arrangement without the catalogue must not
   *   silently let events go live)
   */
  checkGoLive(em: EntityManager, event: Event): Promise<string | null> {
    if (!this.goLive) throw new Error('No go-live check registered (is the catalogue module loaded?)');
    return this.goLive(em, event);
  }

  async eventCreated(em: EntityManager, event: Event, principal: Principal): Promise<void> {
    for (const handler of this.created) await handler(em, event, principal);
  }
}
