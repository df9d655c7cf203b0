import { OrganizerSettingsQueries } from './organizer-settings.queries';
import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import type { Organizer } from '../organizer.entity';
import type { OrganizerSettingsDto } from './organizer-settings.dto';
import { applyOrganizerSettings, effectiveOrganizerSettings } from './organizer-settings.rules';

/**
 * `O/settings/` (pretix `OrganizerSettingsView`): the organizer settings of `organizer-settings.schema.ts`,
 * stored in `organizer_settings` (only the keys set explicitly). PATCH logs `pretix.organizer.settings` with the
 * keys sent.
 */
@Injectable()
export class OrganizerSettingsService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly audit: AuditLogService,
    private readonly queries: OrganizerSettingsQueries,
  ) {}

  /** Every key with its value or default (one statement). */
  async get(organizer: Organizer): Promise<Record<string, unknown>> {
    return effectiveOrganizerSettings(await this.queries.stored(this.db, organizer.id));
  }

  /**
   * Sets the keys sent (null: back to the default) in one statement that merges them into the stored ones, so
   * concurrent PATCHes of different keys do not lose each other. Nothing sent: no write, no log entry.
   * @returns all settings afterwards
   */
  async update(
    organizer: Organizer,
    principal: Principal,
    body: OrganizerSettingsDto,
  ): Promise<Record<string, unknown>> {
    const { values: set, changes } = applyOrganizerSettings({}, body);
    const keys = Object.keys(changes);
    if (keys.length === 0) return this.get(organizer);
    const removed = keys.filter((k) => changes[k] === null);
    return this.db.transaction(async (em) => {
      const stored = await this.queries.merge(em, organizer.id, set, removed);
      await this.audit.record(em, principal, {
        organizerId: organizer.id,
        eventId: null,
        contentType: 'organizer',
        objectId: organizer.id,
        action: 'pretix.organizer.settings',
        data: changes,
      });
      return effectiveOrganizerSettings(stored);
    });
  }
}
