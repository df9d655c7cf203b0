import type { EntityManager } from 'typeorm';

/**
 * `checkins` shredder (compat §3.8), export part: every scan of the event (successful or not) with its raw data.
 * One statement.
 */
export async function exportCheckins(em: EntityManager, eventId: number): Promise<unknown[]> {
  return em.query(
    `SELECT id, position_id, list_id, type, datetime, successful, error_reason, raw_barcode, raw_source_type
       FROM checkin WHERE event_id = $1 ORDER BY id`,
    [eventId],
  );
}

/**
 * Shred part on the caller's transaction: deletes the failed scans (they hold nothing but raw scanned data) and
 * removes the raw barcode and source of the successful ones, which stay as the check-in state of their tickets.
 */
export async function shredCheckins(em: EntityManager, eventId: number): Promise<void> {
  await em.query(`DELETE FROM checkin WHERE event_id = $1 AND NOT successful`, [eventId]);
  await em.query(`UPDATE checkin SET raw_barcode = NULL, raw_source_type = NULL WHERE event_id = $1`, [
    eventId,
  ]);
}
