import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** SQL of the organizer settings (table `organizer_settings`, one jsonb row per organizer). */
@Injectable()
export class OrganizerSettingsQueries {
  /** The stored values of the organizer (`{}` when none are stored; one statement). */
  async stored(em: EntityManager, organizerId: number): Promise<Record<string, unknown>> {
    const rows: { values: Record<string, unknown> }[] = await em.query(
      'SELECT "values" FROM organizer_settings WHERE organizer_id = $1',
      [organizerId],
    );
    return rows[0]?.values ?? {};
  }

  /**
   * Merges `set` into the stored values and removes `removed`, in one statement (concurrent writes of different
   * keys keep each other).
   * @returns the stored values afterwards
   */
  async merge(
    em: EntityManager,
    organizerId: number,
    set: Record<string, unknown>,
    removed: string[],
  ): Promise<Record<string, unknown>> {
    const rows: { values: Record<string, unknown> }[] = await em.query(
      `INSERT INTO organizer_settings (organizer_id, "values") VALUES ($1, $2::jsonb - $3::text[])
       ON CONFLICT (organizer_id) DO UPDATE SET "values" = (organizer_settings."values" || $2::jsonb) - $3::text[]
       RETURNING "values"`,
      [organizerId, JSON.stringify(set), removed],
    );
    return rows[0].values;
  }
}
