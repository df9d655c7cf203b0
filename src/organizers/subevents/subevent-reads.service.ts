import { Inject, Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import type { Principal } from '../../auth/principal';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import type { Event } from '../event.entity';
import type { Organizer } from '../organizer.entity';
import { SubEventJson, toSubEventJson } from './subevent.presenter';
import { SubEventQueries, SubEventWithSlug } from './subevent.queries';
import { SUBEVENT_PRICES, SubEventPrices } from './subevent-prices.port';

export { SUBEVENT_ORDERING } from './subevent.queries';

/**
 * Reads of dates: the event's and the organizer's lists with their filters, and one date. Each answer takes two
 * statements (the page with the series' slugs, then the price overrides through the catalogue's port).
 */
@Injectable()
export class SubEventReads {
  constructor(
    @InjectEntityManager() private readonly manager: EntityManager,
    @Inject(SUBEVENT_PRICES) private readonly prices: SubEventPrices,
    private readonly queries: SubEventQueries,
  ) {}

  /**
   * `GET E/subevents/`: filters `active`, `is_public`, `is_future`, `is_past`, `ends_after`, `attr[<name>]`
   * (see `SubEventQueries`); ordering `id`, `date_from` (default), `last_modified`.
   * @throws ValidationFailed for an unparsable filter value (e.g. `ends_after=soon`)
   */
  async listOfEvent(
    event: Event,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<SubEventJson>> {
    return this.withPrices(await this.queries.pageOfEvent(this.manager, event.id, filters, page));
  }

  /**
   * `GET O/subevents/`: dates of the organizer's events the principal reaches; the filters of
   * {@link listOfEvent} and `event__live`.
   */
  async listOfOrganizer(
    organizer: Organizer,
    principal: Principal,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<SubEventJson>> {
    const reachable = principal.reachableEvents(organizer.id);
    return this.withPrices(
      await this.queries.pageOfOrganizer(this.manager, organizer.id, reachable, filters, page),
    );
  }

  /** `GET E/subevents/{id}/`. @throws NotFound for an id that is not a date of the event */
  get(event: Event, id: number): Promise<SubEventJson> {
    return this.getIn(this.manager, event, id);
  }

  /** One date of the event in wire form, read in `em`. @throws NotFound for an id that is not a date of the event */
  async getIn(em: EntityManager, event: Event, id: number): Promise<SubEventJson> {
    const found = await this.queries.oneOfEvent(em, event.id, id);
    return toSubEventJson(found, event.slug, (await this.prices.load(em, [found.id])).get(found.id)!);
  }

  private async withPrices(rows: Paginated<SubEventWithSlug>): Promise<Paginated<SubEventJson>> {
    const prices = await this.prices.load(
      this.manager,
      rows.items.map((r) => r.row.id),
    );
    return rows.withItems(rows.items.map((r) => toSubEventJson(r.row, r.slug, prices.get(r.row.id)!)));
  }
}
