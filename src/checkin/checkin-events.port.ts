/**
 * What the check-in writers tell after their transaction has committed (the live stream of a list,
 * `E/checkinlists/{list}/stream/`, README "Live check-in stream"). Check-in sits below `sync`, which provides the
 * port (`app.module.ts`, `worker.module.ts` hand its module to `CheckinModule.register` / `ExitAllModule.register`),
 * so check-in never imports the stream. Mandatory.
 *
 * - `checkins`: successful scans stored with these ids (automatic check-ins, automatic exits, batches).
 * - `scans`: the successful scans of one ticket on one list numbered above `afterId` (a redeem, whose one-statement
 *   insert returns no id; its earlier scans' highest id is `afterId`).
 * - `annulment`: the successful scan `checkinId` was annulled.
 */
export type CheckinChange =
  | { kind: 'checkins'; checkinIds: readonly number[] }
  | { kind: 'scans'; listId: number; positionId: number; afterId: number }
  | { kind: 'annulment'; checkinId: number };

/** Port: see {@link CheckinChange}. */
export interface CheckinEvents {
  /**
   * Publishes the change. Call only AFTER the commit (a rolled-back scan is never pushed). Never throws and never
   * delays the caller's answer: the work runs in the background, and a failure (Redis or the database down) is
   * logged and counted, never answered (the check-in is committed; clients catch up by `Last-Event-ID`).
   */
  committed(change: CheckinChange): void;
}

export const CHECKIN_EVENTS = Symbol('CheckinEvents');
