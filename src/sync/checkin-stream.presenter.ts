import { isoUtc } from '../common/values/datetime';
import type { CheckinStreamEntry } from '../checkin/checkin-stream.reads';

/**
 * The `data:` of a live check-in stream event (README "Live check-in stream"), every field named:
 * `checkin` (the scan's id; for an annulment the id of the scan annulled), `list`, `position` (order position
 * id), `secret`, `order` (code), `type` (`entry`/`exit`), `datetime` (when the scan happened, ISO UTC `Z`),
 * `forced`, `auto_checked_in`, `device_id` and `gate` (the scanning device's number and its gate's id, as on
 * check-ins; null for scans made with a team or OAuth token).
 */
export interface CheckinStreamData {
  checkin: number;
  list: number;
  position: number;
  secret: string;
  order: string;
  type: 'entry' | 'exit';
  datetime: string;
  forced: boolean;
  auto_checked_in: boolean;
  device_id: number | null;
  gate: number | null;
}

/** One event as it travels over Redis and is written to each client. */
export interface StreamFrame {
  /** The `id:` (the entry's number). */
  seq: number;
  /** The `event:` name. */
  kind: 'checkin' | 'annulment';
  data: CheckinStreamData;
}

/** The frame of a stream entry. */
export function toStreamFrame(entry: CheckinStreamEntry): StreamFrame {
  return {
    seq: entry.seq,
    kind: entry.kind,
    data: {
      checkin: entry.checkinId,
      list: entry.listId,
      position: entry.positionId,
      secret: entry.secret,
      order: entry.order,
      type: entry.type,
      datetime: isoUtc(entry.datetime),
      forced: entry.forced,
      auto_checked_in: entry.autoCheckedIn,
      device_id: entry.deviceId,
      gate: entry.gateId,
    },
  };
}

/** The text/event-stream form of a frame: `id:`, `event:`, one `data:` line of JSON, a blank line. */
export function sseText(frame: StreamFrame): string {
  return `id: ${frame.seq}\nevent: ${frame.kind}\ndata: ${JSON.stringify(frame.data)}\n\n`;
}

/**
 * The `reset` event: the client's `Last-Event-ID` is too far behind (more than `STREAM_REPLAY_MAX` entries) or
 * unknown (above every number handed out); it resynchronises the list's positions, then follows the live events.
 * Its `id:` is the latest number handed out, so a reconnection resumes from there.
 */
export function resetText(reason: 'too_old' | 'unknown', lastAllocated: number): string {
  return `id: ${lastAllocated}\nevent: reset\ndata: ${JSON.stringify({ reason })}\n\n`;
}
