import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CheckinStreamReads } from '../checkin/checkin-stream.reads';
import { NotFound, ValidationFailed } from '../common/errors';
import { AppConfig } from '../config/app-config';
import type { Event } from '../organizers/event.entity';
import { CheckinStreamHub } from './checkin-stream.hub';
import { resetText, sseText, toStreamFrame } from './checkin-stream.presenter';

/** What a client may send as the last event it has: the `id:` of an event, a whole number. */
const EVENT_ID = /^\d{1,10}$/;

/**
 * Opens a live check-in stream (README "Live check-in stream"; `E/checkinlists/{list}/stream/`):
 * 1. checks the list and the resumption point (`Last-Event-ID` header, else `?last_event_id=`);
 * 2. joins the process's hub, which subscribes to the list's channel BEFORE anything is read, and buffers live
 *    frames;
 * 3. with a resumption point, replays from PostgreSQL every entry of the list numbered above it (at most
 *    `STREAM_REPLAY_MAX`; further behind, or a number never handed out: one `reset` event instead);
 * 4. goes live: the buffered frames the replay did not have, then each frame as it comes.
 * So a resuming client gets no gap and no entry twice between the replay and the live part.
 *
 * Guarantee across reconnections (architecture.md "Change feed order"): numbers are taken when a scan is
 * written, not when it commits, so a scan numbered N can commit after N+1 was pushed. A client that disconnects
 * in exactly that window and resumes from N+1 does not get N replayed (the window is one transaction's commit,
 * milliseconds). A scanner that must never miss one combines the stream with its periodic sync of the list's
 * positions (or the delta mirror), as pretixSCAN does; the stream shortens the double-entry window, PostgreSQL
 * stays the record.
 */
@Injectable()
export class CheckinStreamService {
  constructor(
    private readonly reads: CheckinStreamReads,
    private readonly hub: CheckinStreamHub,
    private readonly config: AppConfig,
  ) {}

  /**
   * Answers the request with the stream until the client goes away or the server stops.
   * @throws NotFound (404) for a list not of the event
   * @throws ValidationFailed (400 `{"last_event_id": [...]}`) for a resumption point that is not a number
   * @throws ServiceUnavailable (503) past `STREAM_MAX_CLIENTS` or while Redis is unreachable
   */
  async open(
    event: Event,
    listId: number,
    lastEventId: string | undefined,
    req: Request,
    res: Response,
  ): Promise<void> {
    if (lastEventId !== undefined && !EVENT_ID.test(lastEventId.trim())) {
      throw new ValidationFailed({ last_event_id: ['A valid integer is required.'] });
    }
    if (!(await this.reads.listOfEvent(event.id, listId))) throw new NotFound();
    const client = await this.hub.join(listId, res);
    try {
      let text = '';
      const replayed = new Set<number>();
      if (lastEventId !== undefined) {
        const after = Number(lastEventId.trim());
        const replay = await this.reads.replay(listId, after, this.config.streamReplayMax);
        if (after > replay.lastAllocated) text += resetText('unknown', replay.lastAllocated);
        else if (replay.truncated) text += resetText('too_old', replay.lastAllocated);
        else {
          for (const entry of replay.entries) {
            replayed.add(entry.seq);
            text += sseText(toStreamFrame(entry));
          }
        }
      }
      res.status(200);
      res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('X-Accel-Buffering', 'no');
      res.flushHeaders();
      res.write(`retry: 2000\n: stream of check-in list ${listId}\n\n${text}`);
      this.hub.goLive(client, replayed);
    } catch (err) {
      this.hub.leave(client);
      throw err;
    }
    req.on('close', () => this.hub.leave(client));
  }
}
