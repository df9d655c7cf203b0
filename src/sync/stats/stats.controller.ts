import { Controller, Get, Headers, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiEventStream } from '../sse/sse-openapi';
import type { Request, Response } from 'express';
import { RequirePermission } from '../../auth/access.decorators';
import { CurrentEvent } from '../../auth/request-context';
import { filter, ListFilters } from '../../common/http/list-filters';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { Event } from '../../organizers/event.entity';
import { StatsStreamService } from './stats-stream.service';
import { EventStatsJson } from './stats.presenter';
import { StatsService } from './stats.service';

const SUBEVENT = filter.int(
  'Id of an event date: its quotas, products counted on it, and the check-in lists of that date and of all dates.',
);

const STREAM_EXAMPLE = [
  'retry: 2000',
  ': live figures of event conf',
  '',
  'id: 41',
  'event: stats',
  'data: {"event":"conf","subevent":null,"quotas":[{"id":3,"name":"Tickets","subevent":null,"size":100,"paid":12,"pending":2,"in_carts":1,"blocking_vouchers":0,"exited":0,"available":85}],"items":[{"item":5,"variation":null,"paid":12,"pending":2,"in_carts":1,"blocking_vouchers":0,"available":85}],"orders":{"n":{"count":2,"total":"46.00"},"p":{"count":10,"total":"276.00"},"e":{"count":0,"total":"0.00"},"c":{"count":1,"total":"23.00"}},"checkin_lists":[{"id":7,"checked_in":4,"inside":3}]}',
  '',
  ': keep-alive',
  '',
  '',
].join('\n');

const STREAM_DESCRIPTION =
  'Server-sent events (`text/event-stream`) of the live figures: `event: stats` whose `data:` is one line of ' +
  'JSON exactly as `GET E/stats/` answers, sent when the figures change, at most one message per second per ' +
  'event (and `subevent`) across all servers; bursts are coalesced and the last state always follows. `id:` ' +
  'is the message number, increasing per event. On connection the current figures come at once, unless ' +
  '`Last-Event-ID` (or `?last_event_id=`) is the latest number (then the next change comes). Comment lines ' +
  '(`: keep-alive`) come every `STREAM_HEARTBEAT_SECONDS`; the stream ends when the server stops (reconnect ' +
  'with `Last-Event-ID`). 503 past `STREAM_MAX_CLIENTS` open streams per server or while Redis is unreachable.';

/**
 * `E/stats/` and `E/stats/stream/`: the event's live figures (README "Live figures"), read from maintained
 * counters. Permission: `event.orders:read` (the figures are sums over the event's orders and check-ins).
 */
@ApiTags('stats')
@Controller('organizers/:organizer/events/:event/stats')
export class StatsController {
  constructor(
    private readonly stats: StatsService,
    private readonly stream: StatsStreamService,
  ) {}

  /** The figures now. */
  @Get()
  @RequirePermission('event.orders:read')
  @ApiOperation({ summary: 'Live figures of the event: quotas, products, orders by status, check-ins' })
  @ListFilters({ filters: { subevent: SUBEVENT } })
  retrieveEventStats(
    @CurrentEvent() event: Event,
    @Filters() filters: QueryFilters,
  ): Promise<EventStatsJson> {
    return this.stats.figures(event, filters.int('subevent') ?? null);
  }

  /** Opens the stream of the figures. */
  @Get('stream')
  @RequirePermission('event.orders:read')
  @ApiOperation({ summary: 'Live figures of the event as they change (server-sent events)' })
  @ApiEventStream({
    description: STREAM_DESCRIPTION,
    example: STREAM_EXAMPLE,
    lastEventId: 'The `id:` of the last event received: the current figures come only when newer.',
    idPattern: '^\\d{1,15}$',
  })
  @ListFilters({
    filters: {
      subevent: SUBEVENT,
      last_event_id: filter.text('As the `Last-Event-ID` header, for clients that cannot set headers.'),
    },
  })
  streamEventStats(
    @CurrentEvent() event: Event,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Filters() filters: QueryFilters,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return this.stream.open(
      event,
      filters.int('subevent') ?? null,
      lastEventId ?? filters.str('last_event_id'),
      req,
      res,
    );
  }
}
