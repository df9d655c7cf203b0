/**
 * What the check-in writers tell after their transaction has committed (the live stream of a list,
 * `E/checkinlists/{list}/stream/`, README "Live check-in stream"). Check-in sits below `sync`, which provides the
 * port (`app.module.ts`, `worker.module.ts` hand its module to `CheckinModule.register` / `ExitAllModule.register`),
 * so check-in never imports the stream. Mandatory.
 *
 * - `checkins`: successful scans stored with these ids (automatic check-ins, automatic exits, batches).
 * - `scans`: for each item, the successful scans of the ticket `positionId` on the list `listId` numbered above
 *   `afterId` (a redeem, whose one-statement insert returns no id: `afterId` is the highest id of the ticket's
 *   earlier scans on the list; a batch of redeems passes one item per stored scan).
 * - `annulment`: the successful scan `checkinId` was annulled.
 */
export type CheckinChange =
  | { kind: 'checkins'; checkinIds: readonly number[] }
  | { kind: 'scans'; scans: readonly { listId: number; positionId: number; afterId: number }[] }
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
