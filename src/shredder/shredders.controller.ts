import { Body, Controller, Get, HttpCode, Param, Post, Req, StreamableFile } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiConflictResponse,
  ApiExpectationFailedResponse,
  ApiGoneResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { RequirePermission } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentEvent, CurrentPrincipal } from '../auth/request-context';
import { Event } from '../organizers/event.entity';
import { ShredderExportDto } from './shredder.dto';
import {
  ShredderExportJson,
  ShredderJson,
  ShredderListJson,
  ShredStartedJson,
  ShredStatusJson,
  TaskFailedJson,
  TaskPendingJson,
} from './shredder.presenter';
import { ShreddersService } from './shredders.service';
import { NoStore } from '../common/http/no-store';

const PERMISSION = 'event.orders:write';

/** Absolute URL of `E/shredders/` for the request's host. */
function shreddersBase(req: Request, event: Event, organizerSlug: string): string {
  return `${req.protocol}://${req.get('host') ?? 'localhost'}/api/v1/organizers/${organizerSlug}/events/${event.slug}/shredders/`;
}

/**
 * `E/shredders/` (spec "Shredders"; compat §3.8): list, detail, and the export -> download -> shred -> status state
 * machine with 202/409/410/417 answers. Every route needs `event.orders:write` (docs/permissions.md).
 */
@ApiTags('shredders')
@Controller('organizers/:organizer/events/:event/shredders')
export class ShreddersController {
  constructor(private readonly shredders: ShreddersService) {}

  @Get()
  @RequirePermission(PERMISSION)
  @ApiOkResponse({ type: ShredderListJson })
  getEventShredders(): ShredderListJson {
    return this.shredders.list();
  }

  /** Starts the export of the chosen shredders' data: 202 with the absolute `download` and `shred` URLs. */
  @Post('export')
  @HttpCode(202)
  @RequirePermission(PERMISSION)
  @ApiAcceptedResponse({ type: ShredderExportJson })
  createExport(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('organizer') organizer: string,
    @Req() req: Request,
    @Body() body: ShredderExportDto,
  ): Promise<ShredderExportJson> {
    return this.shredders.startExport(event, principal, body, shreddersBase(req, event, organizer));
  }

  /** The export ZIP (one JSON file per shredder); 409 while exporting, 410 failed, 404 unknown or shredded. */
  @NoStore()
  @Get('download/:task/:file')
  @RequirePermission(PERMISSION)
  @ApiOkResponse({
    description: 'The ZIP file.',
    content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiConflictResponse({
    description: 'Export `waiting` or `running`: `{"status": ...}`; retry after a second.',
    type: TaskPendingJson,
  })
  @ApiGoneResponse({
    description: 'Export failed: `{"status": "failed", "message": ...}`.',
    type: TaskFailedJson,
  })
  @ApiNotFoundResponse({ description: 'Unknown, expired, shredded, or started by another credential.' })
  async retrieveDownload(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('task') task: string,
    @Param('file') file: string,
  ): Promise<StreamableFile> {
    const zip = await this.shredders.download(event, principal, task, file);
    return new StreamableFile(zip.content, {
      type: 'application/zip',
      disposition: `attachment; filename="${zip.filename}"`,
      length: zip.content.length,
    });
  }

  /** Starts shredding the exported data: 202 with the absolute `status` URL. */
  @Post('shred/:task/:file')
  @HttpCode(202)
  @RequirePermission(PERMISSION)
  @ApiAcceptedResponse({ type: ShredStartedJson })
  @ApiConflictResponse({ description: 'Export still `waiting` or `running`.', type: TaskPendingJson })
  @ApiGoneResponse({
    description: 'Export failed: `{"status": "failed", "message": ...}`.',
    type: TaskFailedJson,
  })
  @ApiNotFoundResponse({ description: 'Unknown, expired, already shredded, or another credential’s export.' })
  createShred(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('organizer') organizer: string,
    @Req() req: Request,
    @Param('task') task: string,
    @Param('file') file: string,
  ): Promise<ShredStartedJson> {
    return this.shredders.startShred(event, principal, task, file, shreddersBase(req, event, organizer));
  }

  /** 200 `{"status": "ok"}` once shredded; 409 running; 417 failed; 410 unknown or older than an hour. */
  @Get('status/:task/:file')
  @RequirePermission(PERMISSION)
  @ApiOkResponse({ type: ShredStatusJson })
  @ApiConflictResponse({
    description: 'Shred `waiting` or `running`: `{"status": ...}`; retry after a second.',
    type: TaskPendingJson,
  })
  @ApiExpectationFailedResponse({
    description: 'Shred failed: `{"status": "failed", "message": ...}`.',
    type: TaskFailedJson,
  })
  @ApiGoneResponse({
    description: '`{"status": "gone", ...}`: unknown, older than an hour, or another credential’s.',
    type: TaskFailedJson,
  })
  retrieveStatu(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('task') task: string,
    @Param('file') file: string,
  ): Promise<ShredStatusJson> {
    return this.shredders.status(event, principal, task, file);
  }

  @Get(':identifier')
  @RequirePermission(PERMISSION)
  @ApiOkResponse({ type: ShredderJson })
  @ApiNotFoundResponse({ description: 'Unknown shredder.' })
  retrieveShredder(@Param('identifier') identifier: string): ShredderJson {
    return this.shredders.get(identifier);
  }
}
