import { isoUtc } from '../common/values/datetime';

/**
 * Offline double entry (README "Check-in", "Batch redeem"): two scanners admitted the same ticket while offline and
 * upload their forced entries later. On a list that allows neither multiple entries nor (after an exit) re-entry,
 * the entry with the EARLIER `datetime` is the ticket's entry; the later one is kept as a failed scan with reason
 * `already_redeemed` and a `conflict` naming the entry. An upload that arrives later but is dated earlier takes
 * the entry over: the stored later entries become the failed ones. Pure code (unit-tested in
 * `offline-conflict.spec.ts`); the caller holds the position's row lock, so parallel uploads are decided one after
 * the other.
 *
 * Only forced entries that carry a `datetime` are offline uploads (pretixSCAN uploads its queue with `force` and
 * the scan time); a forced entry without `datetime` is an online override and is admitted as pretix does, without
 * bookkeeping. Answers never change: a forced scan answers `ok` either way (the person is inside).
 */

/** A stored successful scan of the ticket on the list. */
export interface StoredScan {
  id: number;
  type: string;
  datetime: Date;
  deviceId: number | null;
  gateId: number | null;
}

/** What the list allows (compat §3.20). */
export interface EntryPolicy {
  allowMultipleEntries: boolean;
  allowEntryAfterExit: boolean;
}

/** The scan being decided. */
export interface IncomingScan {
  type: string;
  force: boolean;
  /** The scan carried a `datetime` (an offline upload). */
  dated: boolean;
  at: Date;
}

/** What becomes of an offline forced entry. */
export type OfflineOutcome =
  | { kind: 'none' }
  /** Stored as failed `already_redeemed` with a conflict naming `entry`. */
  | { kind: 'loses'; entry: StoredScan }
  /** Stored as the entry; the stored `demote` entries become failed with a conflict naming it. */
  | { kind: 'wins'; demote: StoredScan[] };

/** Decides an incoming scan against the ticket's stored successful scans on the list (see the file comment). */
export function offlineOutcome(
  policy: EntryPolicy,
  scan: IncomingScan,
  stored: readonly StoredScan[],
): OfflineOutcome {
  if (!scan.force || !scan.dated || scan.type !== 'entry' || policy.allowMultipleEntries)
    return { kind: 'none' };
  if (policy.allowEntryAfterExit && stored.some((s) => s.type === 'exit')) return { kind: 'none' };
  const entries = stored
    .filter((s) => s.type === 'entry')
    .sort((a, b) => a.datetime.getTime() - b.datetime.getTime() || a.id - b.id);
  if (entries.length === 0) return { kind: 'none' };
  const first = entries[0];
  // A tie keeps the stored entry (it was first to arrive).
  if (first.datetime.getTime() <= scan.at.getTime()) return { kind: 'loses', entry: first };
  return { kind: 'wins', demote: entries };
}

/** The `conflict` object stored on the losing scan (datetime ISO UTC). */
export function conflictOf(entry: StoredScan): {
  device_id: number | null;
  gate: number | null;
  datetime: string;
  checkin_id: number;
} {
  return {
    device_id: entry.deviceId,
    gate: entry.gateId,
    datetime: isoUtc(entry.datetime),
    checkin_id: entry.id,
  };
}
