import { Injectable, Type } from '@nestjs/common';
import { DiscoveryService, ModuleRef } from '@nestjs/core';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { ChangeRenderer, RENDERS_CHANGES } from '../../audit/change-renderer';
import type { Principal } from '../../auth/principal';
import { ItemMetaPropertiesService } from '../../catalogue/item-meta-properties/item-meta-properties.service';
import { MembershipTypesService } from '../../catalogue/membership-types/membership-types.service';
import { AutoCheckinRulesService } from '../../checkin/auto-checkin/auto-checkin-rules.service';
import { CheckinListsService } from '../../checkin/checkin-lists.service';
import { checkContributions, discoverClassContributions } from '../../common/contributions';
import { NotFound } from '../../common/errors';
import type { ObjectRef } from '../../common/listing/object-refs';
import { MembershipsService } from '../../customers/memberships.service';
import { ReusableMediaService } from '../../media/reusable-media.service';
import { CartPositionsService } from '../../orders/carts/cart-positions.service';
import type { Event } from '../../organizers/event.entity';
import { EventsService } from '../../organizers/events.service';
import { EventMetaPropertiesService } from '../../organizers/meta-properties/event-meta-properties.service';
import type { Organizer } from '../../organizers/organizer.entity';
import { OrganizersService } from '../../organizers/organizers.service';
import { SubEventReads } from '../../organizers/subevents/subevent-reads.service';
import { TenancyQueries } from '../../organizers/tenancy.queries';
import { SeatingPlansService } from '../../seating/seating-plans.service';
import { TeamsService } from '../../teams/teams.service';
import { WaitingListService } from '../../waitinglist/waiting-list.service';
import type { ChangeResourceName } from '../change-resources';

/** What renderers share for one page: the organizer, the credential, and the page's events once loaded. */
export interface RenderScope {
  organizer: Organizer;
  principal: Principal;
  events: Map<number, Event>;
}

/** Renders the objects `refs` names as their detail GET answers them; objects that no longer exist are absent. */
type Render = (scope: RenderScope, refs: ObjectRef[]) => Promise<Map<number, unknown>>;

/** How the feed renders one resource. */
interface ResourceRenderer {
  /** `bulk`: one or two statements for the whole page; `each`: one detail read per object (capped per page). */
  mode: 'bulk' | 'each';
  render: Render;
}

/**
 * Objects of `each` resources a page renders at most; the page is cut before the next one (its `next` cursor
 * continues there), so a page costs a bounded number of statements whatever its size.
 */
export const EACH_OBJECTS_PER_PAGE = 25;

/**
 * Resources rendered in bulk by a {@link ChangeRenderer} contribution of their own context (`@RendersChanges`,
 * found at boot; each must have exactly one): the often changing ones, those whose context sits above the feed's
 * (devices, gates, webhooks, e-mail rules) and those answered by an identifier the log does not hold (customers,
 * sales channels: rendered from the row id).
 */
export const CONTRIBUTED: readonly ChangeResourceName[] = [
  'order',
  'checkin',
  'item',
  'quota',
  'voucher',
  'category',
  'question',
  'taxrule',
  'discount',
  'giftcard',
  'device',
  'gate',
  'webhook',
  'sendmailrule',
  'customer',
  'saleschannel',
];

/**
 * The renderers of the change feed (issue 27 §1), per resource: the bulk renderers the owning contexts contribute
 * ({@link CONTRIBUTED}: one or two statements per resource on a page, whatever its size), the organizer (already
 * loaded), and for the rarely changing ones (events, dates, check-in lists, teams, ...) the resource's own detail
 * read per object, at most {@link EACH_OBJECTS_PER_PAGE} per page (services found in the application's container,
 * all below the feed's layer). Either way `data` is exactly what the detail GET answers (without query parameters).
 */
@Injectable()
export class ChangeRenderers {
  private table?: Partial<Record<ChangeResourceName, ResourceRenderer>>;

  constructor(
    private readonly modules: ModuleRef,
    private readonly discovery: DiscoveryService,
    @InjectEntityManager() private readonly em: EntityManager,
    private readonly tenancy: TenancyQueries,
  ) {}

  /** How `resource` is rendered, or null when it is not. */
  of(resource: ChangeResourceName): ResourceRenderer | null {
    this.table ??= this.build();
    return this.table[resource] ?? null;
  }

  /** Loads the events of `eventIds` not yet in `scope` (one statement, none when all are there). */
  async loadEvents(scope: RenderScope, eventIds: readonly number[]): Promise<void> {
    const missing = [...new Set(eventIds)].filter((id) => !scope.events.has(id));
    if (missing.length === 0) return;
    for (const e of await this.tenancy.eventsByIds(this.em, scope.organizer.id, missing))
      scope.events.set(e.id, e);
  }

  private service<T>(type: Type<T>): T {
    return this.modules.get(type, { strict: false });
  }

  private build(): Partial<Record<ChangeResourceName, ResourceRenderer>> {
    const bulk = (render: Render): ResourceRenderer => ({ mode: 'bulk', render });
    const onEvent = <T>(get: (event: Event, id: number) => Promise<T>): ResourceRenderer => ({
      mode: 'each',
      render: (scope, refs) =>
        each(refs, (ref) => {
          const event = ref.eventId === null ? undefined : scope.events.get(ref.eventId);
          return event ? get(event, ref.id) : Promise.resolve(undefined);
        }),
    });
    const onOrganizer = <T>(get: (organizer: Organizer, id: number) => Promise<T>): ResourceRenderer => ({
      mode: 'each',
      render: (scope, refs) => each(refs, (ref) => get(scope.organizer, ref.id)),
    });
    const events = this.service(EventsService);
    const subevents = this.service(SubEventReads);
    const lists = this.service(CheckinListsService);
    const waitingList = this.service(WaitingListService);
    const carts = this.service(CartPositionsService);
    const itemMeta = this.service(ItemMetaPropertiesService);
    const autoCheckin = this.service(AutoCheckinRulesService);
    const teams = this.service(TeamsService);
    const memberships = this.service(MembershipsService);
    const membershipTypes = this.service(MembershipTypesService);
    const eventMeta = this.service(EventMetaPropertiesService);
    const seatingPlans = this.service(SeatingPlansService);
    const media = this.service(ReusableMediaService);
    const organizers = this.service(OrganizersService);
    const contributed = checkContributions(
      'change renderer',
      CONTRIBUTED,
      discoverClassContributions<ChangeRenderer>(this.discovery, RENDERS_CHANGES),
    );
    const fromContexts = Object.fromEntries(
      [...contributed].map(([name, renderer]) => [
        name,
        bulk((s, refs) => renderer.renderChanges({ organizer: s.organizer, principal: s.principal }, refs)),
      ]),
    );
    return {
      ...fromContexts,
      organizer: bulk((s, refs) =>
        Promise.resolve(
          new Map(
            refs.filter((r) => r.id === s.organizer.id).map((r) => [r.id, organizers.get(s.organizer)]),
          ),
        ),
      ),
      event: {
        mode: 'each',
        render: (scope, refs) =>
          each(refs, (ref) => {
            const event = scope.events.get(ref.id);
            return event ? events.get(scope.organizer, event) : Promise.resolve(undefined);
          }),
      },
      subevent: onEvent((e, id) => subevents.get(e, id)),
      checkinlist: onEvent((e, id) => lists.get(e, id)),
      waitinglistentry: onEvent((e, id) => waitingList.get(e, id)),
      cartposition: onEvent((e, id) => carts.get(e, id)),
      itemmetaproperty: onEvent((e, id) => itemMeta.get(e, id)),
      autocheckinrule: onEvent((e, id) => autoCheckin.get(e, id)),
      team: onOrganizer((o, id) => teams.get(o, id)),
      membership: onOrganizer((o, id) => memberships.get(o, id)),
      membershiptype: onOrganizer((o, id) => membershipTypes.get(o, id)),
      eventmetaproperty: onOrganizer((o, id) => eventMeta.get(o, id)),
      seatingplan: onOrganizer((o, id) => seatingPlans.get(o, id)),
      reusablemedium: onOrganizer((o, id) => media.get(o, id, { expand: new Set() })),
    };
  }
}

/** One detail read per distinct object, in turn; a NotFound (or no event) leaves the object out. */
async function each<T>(
  refs: readonly ObjectRef[],
  get: (ref: ObjectRef) => Promise<T | undefined>,
): Promise<Map<number, unknown>> {
  const out = new Map<number, unknown>();
  for (const ref of refs) {
    try {
      const json = await get(ref);
      if (json !== undefined) out.set(ref.id, json);
    } catch (err) {
      if (!(err instanceof NotFound)) throw err;
    }
  }
  return out;
}
