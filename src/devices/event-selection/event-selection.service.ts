import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import type { Principal } from '../../auth/principal';
import { CheckinListsService } from '../../checkin/checkin-lists.service';
import { NotAuthenticated, NotFound, NotModified } from '../../common/errors';
import type { QueryFilters } from '../../common/listing/query-filters';
import { i18nText } from '../../common/values/i18n';
import { EventSelectionQueries } from '../../organizers/event-selection.queries';
import { decideSelection } from './event-selection.rules';
import type { EventSelectionJson } from './event-selection.presenter';

/**
 * `GET /api/v1/device/eventselection` (pretix `EventSelectionView`): which event, date and check-in list a device
 * should switch to, given the one it shows (`current_event` slug, `current_subevent` id, `current_checkinlist` id).
 * Two statements after the credential: the candidate dates (organizers) and the list (check-in).
 */
@Injectable()
export class DeviceEventSelectionService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly dates: EventSelectionQueries,
    private readonly lists: CheckinListsService,
  ) {}

  /**
   * The suggestion ({@link decideSelection} picks the event or date, then the list of the same name or id as the
   * device's current one, else the first).
   * @throws NotAuthenticated (401) for a credential that is not a device (pretix authenticates only `Device` tokens
   *   here, like the other `device/*` routes)
   * @throws ValidationFailed (400) for a non-integer `current_subevent` or `current_checkinlist`
   * @throws NotModified (304) when the device should stay where it is
   * @throws NotFound (404) when the device reaches no live event or date at all
   */
  async select(principal: Principal, filters: QueryFilters): Promise<EventSelectionJson> {
    const device = principal.kind === 'device' ? principal.identity.device : undefined;
    if (!device) throw new NotAuthenticated();
    const currentEventSlug = filters.str('current_event') ?? null;
    const currentSubeventId = filters.int('current_subevent') ?? null;
    const currentListId = filters.int('current_checkinlist') ?? null;
    const now = new Date();
    const candidates = await this.dates.candidates(this.db, {
      organizerId: device.organizerId,
      reachable: principal.reachableEvents(device.organizerId),
      now,
      currentEventSlug,
      currentSubeventId,
    });
    const decision = decideSelection(candidates, now);
    if (decision.kind === 'keep') throw new NotModified();
    if (decision.kind === 'none') throw new NotFound();
    const { target, currentEvent } = decision;
    const checkinlist = await this.lists.selectionList(
      target.eventId,
      target.kind === 'subevent' ? target.id : null,
      currentEvent && currentListId !== null
        ? { listId: currentListId, eventId: currentEvent.eventId }
        : null,
    );
    const json: EventSelectionJson = {
      event: { slug: target.eventSlug, name: i18nText(target.eventName) },
      subevent: target.kind === 'subevent' ? target.id : null,
      checkinlist,
    };
    // pretix answers 304 when the suggestion is what the device sent.
    if (
      currentEvent &&
      json.event.slug === currentEvent.eventSlug &&
      json.subevent === currentSubeventId &&
      json.checkinlist === currentListId
    ) {
      throw new NotModified();
    }
    return json;
  }
}
