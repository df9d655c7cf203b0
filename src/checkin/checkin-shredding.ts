import type { EntityManager } from 'typeorm';
import { CheckinQueries } from './checkin.queries';

/** The shredder calls these outside Nest's container; the queries class is stateless. */
const queries = new CheckinQueries();

/**
 * `checkins` shredder (compat §3.8), export part: every scan of the event (successful or not) with its raw data.
 * One statement.
 */
export async function exportCheckins(em: EntityManager, eventId: number): Promise<unknown[]> {
  return queries.exportScans(em, eventId);
}

/**
 * Shred part on the caller's transaction: deletes the failed scans (they hold nothing but raw scanned data) and
 * removes the raw barcode and source of the successful ones, which stay as the check-in state of their tickets.
 */
export async function shredCheckins(em: EntityManager, eventId: number): Promise<void> {
  await queries.deleteFailedScans(em, eventId);
  await queries.dropRawScanData(em, eventId);
}
