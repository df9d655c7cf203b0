import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Event } from '../organizers/event.entity';
import type { EventSettingsDto } from './invoice-settings.dto';
import { InvoiceQueries } from './invoice.queries';
import { effectiveSettings, EventSettings, SETTING_KEYS } from './invoice-settings.rules';

/** The event settings of `E/settings/` (the invoice keys and `locale`), stored in `invoice_settings`. */
@Injectable()
export class InvoiceSettingsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queries: InvoiceQueries,
  ) {}

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
