import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { changeIdOf } from '../../audit/change-id';
import type { Principal } from '../../auth/principal';
import { Gone } from '../../common/errors';
import type { ObjectRef } from '../../common/listing/object-refs';
import { isoUtc } from '../../common/values/datetime';
import type { Organizer } from '../../organizers/organizer.entity';
import { TenancyQueries } from '../../organizers/tenancy.queries';
import {
  CHANGE_RESOURCE_NAMES,
  CHANGE_RESOURCES,
  ChangeResource,
  ChangeResourceName,
} from '../change-resources';
import { decodeChangeCursor, encodeChangeCursor } from './change-cursor';
import { ChangeFeedQueries, FeedRow, ResourceGrant } from './change-feed.queries';
import type { ChangeJson, ChangePageJson } from './change-feed.presenter';
import { ChangeRenderers, EACH_OBJECTS_PER_PAGE, RenderScope } from './change-renderers';
import { ChangeSequencer } from './change-sequencer.service';

/** What a feed request asks for (validated by the controller). */
export interface ChangeFeedRequest {
  cursor?: string;
  /** Only these resources (null: all). */
  resources: ChangeResourceName[] | null;
  /** Only this event (slug), or undefined. */
  event?: string;
  /** 1 to 1,000. */
  pageSize: number;
}

/** The message of a 410 for a cursor whose following entries were pruned. */
export const EXPIRED_CURSOR =
  'This cursor is older than the change feed keeps (CHANGE_FEED_RETENTION_DAYS): changes after it were removed. ' +
  'Download the current state again and follow the feed from a new cursor (omit ?cursor=).';

/**
 * `GET O/changes/` (issue 27 §1): one ordered stream of every change to the organizer's data the credential may
 * read. Order, gap-freedom and retention come from the numbered feed ({@link ChangeSequencer}); a read first runs
 * one sequencer round (skipped while another one runs), then reads one page by sequence in ONE statement that
 * also filters by permission (per resource: its read permission, per event for teams limited to some events; an
 * entry the credential may not read is not returned, not even as a tombstone), by `?resource=` and `?event=`.
 *
 * `data` is rendered when the page is read, not when the change happened: every entry of an object carries the
 * object as its detail GET answers it at the time of reading (so a client that applies the entries in order ends
 * with the current state; earlier entries of an object repeat its latest state), or `null` with `deleted: true`
 * when it no longer exists. Rendering is per resource type in bulk (one or two statements for each type on the
 * page; rarely changing resources one read per object, at most {@link EACH_OBJECTS_PER_PAGE} per page, the page
 * being cut before more), so a page's statement count depends on the resource types on it, not its size.
 */
@Injectable()
export class ChangeFeedService {
  constructor(
    @InjectEntityManager() private readonly em: EntityManager,
    private readonly queries: ChangeFeedQueries,
    private readonly sequencer: ChangeSequencer,
    private readonly renderers: ChangeRenderers,
    private readonly tenancy: TenancyQueries,
  ) {}

  /**
   * One page of the feed after `request.cursor`.
   * @throws ValidationFailed `{"cursor": ["Invalid cursor."]}`
   * @throws Gone (410) when entries after the cursor have been pruned
   */
  async page(
    organizer: Organizer,
    principal: Principal,
    request: ChangeFeedRequest,
  ): Promise<ChangePageJson> {
    const after = decodeChangeCursor(request.cursor);
    let eventId: number | null = null;
    if (request.event !== undefined) {
      const ids = await this.tenancy.eventIdsBySlugs(this.em, organizer.id, [request.event]);
      eventId = ids.get(request.event) ?? -1;
    }
    const grants = grantsOf(principal, organizer.id, request.resources ?? CHANGE_RESOURCE_NAMES);
    await this.sequencer.round();
    const page = await this.queries.page(
      this.em,
      organizer.id,
      after,
      grants,
      request.resources,
      eventId,
      request.pageSize,
    );
    if (after !== '0' && BigInt(after) < BigInt(page.prunedThrough)) throw new Gone(EXPIRED_CURSOR);
    const rows = this.cut(page.rows);
    const results = await this.render(organizer, principal, rows);
    const full = rows.length < page.rows.length || rows.length === request.pageSize;
    const last = rows.length > 0 ? rows[rows.length - 1].sequence : after;
    const next = full ? last : maxOf(last, page.head ?? '0');
    return { next: encodeChangeCursor(next), results };
  }

  /** The page's rows up to the last one whose object is within the per-page budget of `each` renderers. */
  private cut(rows: FeedRow[]): FeedRow[] {
    const seen = new Set<string>();
    for (let i = 0; i < rows.length; i++) {
      const renderer = this.renderers.of(rows[i].resource as ChangeResourceName);
      if (renderer?.mode !== 'each') continue;
      seen.add(`${rows[i].resource}:${rows[i].object_id}`);
      if (seen.size > EACH_OBJECTS_PER_PAGE) return rows.slice(0, i);
    }
    return rows;
  }

  /** The wire form of the rows: events in one statement, then each resource type's objects in bulk. */
  private async render(
    organizer: Organizer,
    principal: Principal,
    rows: readonly FeedRow[],
  ): Promise<ChangeJson[]> {
    const scope: RenderScope = { organizer, principal, events: new Map() };
    await this.renderers.loadEvents(
      scope,
      rows.flatMap((r) => (r.event_id === null ? [] : [r.event_id])),
    );
    const byResource = new Map<string, Map<number, ObjectRef>>();
    for (const r of rows) {
      const refs = byResource.get(r.resource) ?? new Map<number, ObjectRef>();
      refs.set(r.object_id, { id: r.object_id, eventId: r.event_id });
      byResource.set(r.resource, refs);
    }
    const rendered = new Map<string, Map<number, unknown> | null>();
    for (const [resource, refs] of byResource) {
      const renderer = this.renderers.of(resource as ChangeResourceName);
      rendered.set(resource, renderer ? await renderer.render(scope, [...refs.values()]) : null);
    }
    return rows.map((r) => {
      const objects = rendered.get(r.resource) ?? null;
      const data = objects === null ? null : ((objects.get(r.object_id) as Record<string, unknown>) ?? null);
      const deleted = r.deletes || (objects !== null && data === null);
      return {
        id: r.restated ? `${changeIdOf(r.log_entry_id)}.${r.resource}` : changeIdOf(r.log_entry_id),
        sequence: Number(r.sequence),
        action: r.action,
        resource: r.resource,
        event: r.event_id === null ? null : (scope.events.get(r.event_id)?.slug ?? keySlug(r)),
        key: keyOf(r, data),
        occurred_at: isoUtc(new Date(r.occurred_at)),
        data: r.deletes ? null : data,
        deleted,
      };
    });
  }
}

/** The larger of two decimal sequences. */
function maxOf(a: string, b: string): string {
  return BigInt(a) >= BigInt(b) ? a : b;
}

/** A deleted event's slug from its key (its entries outlive it). */
function keySlug(r: FeedRow): string | null {
  return r.resource === 'event' && typeof r.key?.slug === 'string' ? r.key.slug : null;
}

/** The key of a row: as stored, else from the object's data (its key field), else `{"id": objectId}`. */
function keyOf(r: FeedRow, data: Record<string, unknown> | null): Record<string, string | number> {
  if (r.key) return r.key;
  const field = (CHANGE_RESOURCES[r.resource as ChangeResourceName] as ChangeResource | undefined)?.keyField;
  const value = field && data ? data[field] : undefined;
  if (field && (typeof value === 'string' || typeof value === 'number')) return { [field]: value };
  return { id: r.object_id };
}

/**
 * Which entries of each resource the credential reads (docs/permissions.md): organizer-scoped resources with
 * organizer access (no permission named) or one of the resource's organizer permissions; event-scoped ones on the
 * events the credential reaches (no permission named) or where it holds one of the resource's event permissions
 * (`all_events` or `limit_events` of its teams). Resources it reads nowhere are left out.
 */
export function grantsOf(
  principal: Principal,
  organizerId: number,
  resources: readonly ChangeResourceName[],
): ResourceGrant[] {
  const out: ResourceGrant[] = [];
  for (const name of resources) {
    const spec: ChangeResource = CHANGE_RESOURCES[name];
    if (spec.scope === 'organizer') {
      const ok =
        spec.read.length === 0
          ? principal.hasOrganizerAccess(organizerId)
          : principal.organizerPermissions(organizerId).hasAny(spec.read);
      if (ok) out.push({ resource: name, all_events: true, events: [] });
      continue;
    }
    const reach =
      spec.read.length === 0
        ? [principal.reachableEvents(organizerId)]
        : spec.read.map((p) => principal.eventsWithPermission(organizerId, p));
    if (reach.includes('all')) out.push({ resource: name, all_events: true, events: [] });
    else {
      const events = [...new Set(reach.flatMap((r) => (r === 'all' ? [] : r)))];
      if (events.length > 0) out.push({ resource: name, all_events: false, events });
    }
  }
  return out;
}
