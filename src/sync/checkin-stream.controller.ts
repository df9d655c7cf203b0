import { Controller, Get, Headers, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiEventStream } from './sse/sse-openapi';
import type { Request, Response } from 'express';
import { RequirePermission } from '../auth/access.decorators';
import { CurrentEvent } from '../auth/request-context';
import { IdParam } from '../common/http/id-param';
import { filter, ListFilters } from '../common/http/list-filters';
import { NoStore } from '../common/http/no-store';
import { Filters, QueryFilters } from '../common/listing/query-filters';
import { Event } from '../organizers/event.entity';
import { CheckinStreamService } from './checkin-stream.service';

const STREAM_EXAMPLE = [
  'retry: 2000',
  ': stream of check-in list 7',
  '',
  'id: 1042',
  'event: checkin',
  'data: {"checkin":1042,"list":7,"position":311,"secret":"az8u3jd8ss7dlksj","order":"ABC12","type":"entry","datetime":"2026-12-07T18:02:11Z","forced":false,"auto_checked_in":false,"device_id":null,"gate":null}',
  '',
  'id: 1045',
  'event: annulment',
  'data: {"checkin":1042,"list":7,"position":311,"secret":"az8u3jd8ss7dlksj","order":"ABC12","type":"entry","datetime":"2026-12-07T18:02:11Z","forced":false,"auto_checked_in":false,"device_id":null,"gate":null}',
  '',
  ': keep-alive',
  '',
  '',
].join('\n');

const STREAM_DESCRIPTION =
  'Server-sent events (`text/event-stream`) of the list: `event: checkin` for each successful scan (entry or ' +
  'exit, redeem, RPC redeem, automatic check-in or check-out, forced), `event: annulment` for each annulled scan ' +
  '(`data.checkin` is the annulled scan). `data:` is one line of JSON: `checkin`, `list`, `position`, `secret`, ' +
  '`order`, `type`, `datetime` (ISO UTC), `forced`, `auto_checked_in`, `device_id`, `gate`. `id:` is the ' +
  "entry's number (increasing per list); send the last one as `Last-Event-ID` (or `?last_event_id=`) to " +
  'resume: the entries after it are replayed, then the live ones follow, none twice. A resumption point more ' +
  'than `STREAM_REPLAY_MAX` entries behind, or above every number handed out, gets `event: reset` ' +
  '(`{"reason": "too_old"}` or `"unknown"`): resynchronise the positions, then follow the stream. Comment ' +
  'lines (`: keep-alive`) come every `STREAM_HEARTBEAT_SECONDS`. The stream ends when the server stops ' +
  '(reconnect with `Last-Event-ID`). 503 past `STREAM_MAX_CLIENTS` open streams per server or while Redis is ' +
  'unreachable.';

/** `E/checkinlists/{list}/stream/`: the live check-ins of a list between gates (README "Live check-in stream"). */
@ApiTags('checkinlists')
@NoStore()
@Controller('organizers/:organizer/events/:event/checkinlists/:list/stream')
export class CheckinStreamController {
  constructor(private readonly stream: CheckinStreamService) {}

  /** Opens the stream (the permission of the list's positions: reading orders or checking in). */
  @Get()
  @RequirePermission('event.orders:read', 'event.orders:checkin')
  @ApiOperation({ summary: 'Live check-ins and annulments of a check-in list (server-sent events)' })
  @ApiEventStream({
    description: STREAM_DESCRIPTION,
    example: STREAM_EXAMPLE,
    lastEventId: 'The `id:` of the last event received: resume after it.',
    idPattern: '^\\d{1,10}$',
  })
  @ListFilters({
    filters: {
      last_event_id: filter.text('As the `Last-Event-ID` header, for clients that cannot set headers.'),
    },
  })
  streamCheckinList(
    @CurrentEvent() event: Event,
    @IdParam('list') listId: number,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Filters() filters: QueryFilters,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return this.stream.open(event, listId, lastEventId ?? filters.str('last_event_id'), req, res);
  }
}
