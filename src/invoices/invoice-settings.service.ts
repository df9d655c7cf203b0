import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Event } from '../organizers/event.entity';
import type { EventSettingsDto } from './invoice-settings.dto';
import { InvoiceQueries } from './invoice.queries';
import { effectiveSettings, EventSettings, SETTING_KEYS } from './invoice-settings.rules';
import { WaitingListSettingsService } from '../waitinglist/waiting-list-settings.service';
import type { WaitingListSettingsJson } from '../waitinglist/waiting-list.rules';

/** What `E/settings/` shows: the invoice keys and `locale`, and the waiting list keys (their owner's). */
export type ShownEventSettings = EventSettings & WaitingListSettingsJson;

/** The event settings of `E/settings/` (the invoice keys and `locale`), stored in `invoice_settings`. */
@Injectable()
export class InvoiceSettingsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queries: InvoiceQueries,
    private readonly waitingList: WaitingListSettingsService,
  ) {}

  /** `GET E/settings/`: {@link get} and the waiting list settings. */
  async show(eventId: number): Promise<ShownEventSettings> {
    return { ...(await this.get(eventId)), ...(await this.waitingList.get(this.db.manager, eventId)) };
  }

  /** `PATCH E/settings/`: {@link update}, and the `waiting_list_*` keys sent stored by their owner. */
  async change(event: Event, body: EventSettingsDto): Promise<ShownEventSettings> {
    const invoice = await this.update(event, body);
    const waiting = await this.waitingList.update(this.db.manager, event.id, {
      waiting_list_enabled: body.waiting_list_enabled,
      waiting_list_auto: body.waiting_list_auto,
      waiting_list_hours: body.waiting_list_hours,
      waiting_list_limit_per_user: body.waiting_list_limit_per_user,
    });
    return { ...invoice, ...waiting };
  }

  /** The event's settings with the defaults filled in (one statement). */
  async get(eventId: number, em: EntityManager = this.db.manager): Promise<EventSettings> {
    const values = await this.queries.settingsValues(em, eventId);
    return effectiveSettings(values);
  }

  /**
   * `PATCH E/settings/`: stores the keys sent (one upsert that merges them into the stored ones); country codes in
   * capitals. @returns all settings afterwards
   */
  async update(event: Event, body: EventSettingsDto): Promise<EventSettings> {
    const changes: Record<string, string> = {};
    for (const key of SETTING_KEYS) {
      const v = (body as Record<string, unknown>)[key];
      if (typeof v === 'string') changes[key] = key.endsWith('_country') ? v.toUpperCase() : v;
    }
    return effectiveSettings(await this.queries.mergeSettings(this.db.manager, event.id, changes));
  }
}
