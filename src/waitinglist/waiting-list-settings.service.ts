import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { WaitingListSettings } from './waiting-list-settings.entity';
import { WAITING_LIST_DEFAULTS, WaitingListSettingsJson } from './waiting-list.rules';
import { WaitingListQueries } from './waiting-list.queries';

/**
 * The waiting list settings of an event (pretix `waiting_list_enabled`, `waiting_list_auto`,
 * `waiting_list_hours`, `waiting_list_limit_per_user`), stored in `waiting_list_settings`; `E/settings/` shows
 * and changes them through this service.
 */
@Injectable()
export class WaitingListSettingsService {
  constructor(private readonly queries: WaitingListQueries) {}

  /** The event's settings, pretix's defaults where none are stored (one statement). */
  async get(em: EntityManager, eventId: number): Promise<WaitingListSettingsJson> {
    const row = await this.queries.settings(em, eventId);
    if (!row) return { ...WAITING_LIST_DEFAULTS };
    return {
      waiting_list_enabled: row.enabled,
      waiting_list_auto: row.auto,
      waiting_list_hours: row.hours,
      waiting_list_limit_per_user: row.limitPerUser,
    };
  }

  /** Stores the keys given over the current ones. @returns all four afterwards */
  async update(
    em: EntityManager,
    eventId: number,
    changes: Partial<WaitingListSettingsJson>,
  ): Promise<WaitingListSettingsJson> {
    const next = { ...(await this.get(em, eventId)) };
    for (const key of Object.keys(WAITING_LIST_DEFAULTS) as (keyof WaitingListSettingsJson)[]) {
      const v = changes[key];
      if (v !== undefined) (next as Record<string, unknown>)[key] = v;
    }
    const row = new WaitingListSettings();
    row.eventId = eventId;
    row.enabled = next.waiting_list_enabled;
    row.auto = next.waiting_list_auto;
    row.hours = next.waiting_list_hours;
    row.limitPerUser = next.waiting_list_limit_per_user;
    await this.queries.saveSettings(em, row);
    return next;
  }
}
