import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Principal } from '../auth/principal';
import type { Event } from './event.entity';

/** Refuses going live with a message, or allows it (null). */
export type GoLiveCheck = (em: EntityManager, event: Event) => Promise<string | null>;

/** Runs inside the transaction that created the event. */
export type EventCreatedHandler = (em: EntityManager, event: Event, principal: Principal) => Promise<void>;

/**
 * One event clone in progress (`POST E/clone/`, pretix `Event.copy_data_from`): the source, the new event (its row
 * already written), and the old id -> new id maps of what earlier stages copied, by table name (`tax_rule`,
 * `item_category`, `item`, `item_variation`, `quota`, `discount`, `question`, `question_option`,
 * `checkin_list`), like the maps pretix hands to its `event_copy_data` signal. A handler adds the maps of the
 * tables it copies.
 */
export interface EventCopy {
  em: EntityManager;
  source: Event;
  target: Event;
  principal: Principal;
  maps: Map<string, ReadonlyMap<number, number>>;
  /** Logs `pretix.object.cloned` for copied objects of the new event (content type as in the audit log). */
  logCloned(contentType: string, newIds: Iterable<number>): Promise<void>;
}

/** Copies what one context owns of an event to its clone, inside the clone's transaction. */
export type EventCopyHandler = (copy: EventCopy) => Promise<void>;

/**
 * The order in which contexts copy (each may read the maps of the stages before it): the catalogue first (tax
 * rules, categories, items, variations, add-ons, bundles, quotas, discounts, questions), then what refers to
 * items (check-in lists, seats), then per-event settings. New contexts pick a free number between.
 */
export const EVENT_COPY_STAGE = {
  catalogue: 100,
  checkin: 300,
  settings: 500,
} as const;

/**
 * What contexts above the tenancy roots contribute to event writes, without organizers naming their tables or
 * importing them (architecture.md "Layout"): the catalogue registers the go-live check (an event needs a quota,
 * compat §4.2), the teams context what happens when an event is created (the creating token's team reaches it),
 * and every context that owns per-event rows its part of cloning an event ({@link onEventCopy}). They register
 * at module init; organizers imports none of them.
 */
@Injectable()
export class EventHooks {
  private goLive?: GoLiveCheck;
  private readonly created: EventCreatedHandler[] = [];
  private readonly copiers: { stage: number; name: string; handler: EventCopyHandler }[] = [];

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

  /** Registers a context's part of cloning an event, run at `stage` (see {@link EVENT_COPY_STAGE}). */
  onEventCopy(stage: number, name: string, handler: EventCopyHandler): void {
    this.copiers.push({ stage, name, handler });
    this.copiers.sort((a, b) => a.stage - b.stage);
  }

  /**
   * Runs every context's copy in stage order on the clone's transaction.
   * @throws Error when the catalogue registered none (a clone without its products must not silently succeed)
   */
  async copyEventData(copy: EventCopy): Promise<void> {
    if (!this.copiers.some((c) => c.stage === EVENT_COPY_STAGE.catalogue)) {
      throw new Error('No catalogue event copy registered (is the catalogue module loaded?)');
    }
    for (const c of this.copiers) await c.handler(copy);
  }
}
