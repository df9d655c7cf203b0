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
  ) {}

  /** Every key with its value or default (one statement). */
  async get(organizer: Organizer): Promise<Record<string, unknown>> {
    const rows: { values: Record<string, unknown> }[] = await this.db.query(
      'SELECT "values" FROM organizer_settings WHERE organizer_id = $1',
      [organizer.id],
    );
    return effectiveOrganizerSettings(rows[0]?.values ?? {});
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
      const rows: { values: Record<string, unknown> }[] = await em.query(
        `INSERT INTO organizer_settings (organizer_id, "values") VALUES ($1, $2::jsonb - $3::text[])
         ON CONFLICT (organizer_id) DO UPDATE SET "values" = (organizer_settings."values" || $2::jsonb) - $3::text[]
         RETURNING "values"`,
        [organizer.id, JSON.stringify(set), removed],
      );
      await this.audit.record(em, principal, {
        organizerId: organizer.id,
        eventId: null,
        contentType: 'organizer',
        objectId: organizer.id,
        action: 'pretix.organizer.settings',
        data: changes,
      });
      return effectiveOrganizerSettings(rows[0].values);
    });
  }
}
