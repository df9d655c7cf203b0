import { Body, Controller, Get, HttpCode, Param, Post, Req, StreamableFile } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiGoneResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { RequireEventAccess, RequireOrganizerAccess } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentEvent, CurrentOrganizer, CurrentPrincipal } from '../auth/request-context';
import { NoStore } from '../common/http/no-store';
import { Event } from '../organizers/event.entity';
import { Organizer } from '../organizers/organizer.entity';
import type { StoredFile } from '../tasks/stored-file.entity';
import {
  ExporterJson,
  ExporterListJson,
  ExportFailedJson,
  ExportPendingJson,
  ExportStartedJson,
} from './exporter.presenter';
import { ExporterRunsService } from './exporter-runs.service';

/** Absolute URL of `…/exporters/` for the request's host. */
function exportersBase(req: Request, path: string): string {
  return `${req.protocol}://${req.get('host') ?? 'localhost'}/api/v1/organizers/${path}/exporters/`;
}

/** The stored file as pretix sends it: its content type and `attachment; filename="…"` (ASCII only). */
function fileAnswer(file: StoredFile): StreamableFile {
  const ascii = file.filename.replace(/[^\x20-\x7e]|"/g, '');
  return new StreamableFile(file.content, {
    type: file.contentType,
    disposition: `attachment; filename="${ascii}"`,
    length: file.content.length,
  });
}

const RUN_BODY = {
  description:
    "The exporter's form data: `_format` (required) and the exporter's `input_parameters`; other keys are refused.",
  schema: {
    type: 'object',
    properties: { _format: { type: 'string', enum: ['xlsx', 'csv', 'json'] } },
    required: ['_format'],
    additionalProperties: true,
    example: { _format: 'xlsx' },
  },
} as const;
const PENDING = {
  description: 'Still `waiting` or `running`; retry after a second.',
  type: ExportPendingJson,
};
const FAILED = {
  description: 'The export failed: `{"status": "failed", "message": ...}`.',
  type: ExportFailedJson,
};
const FILE = {
  description: 'The file (`Content-Type` of its format, `Content-Disposition: attachment`).',
  content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
};
const NOT_OFFERED = 'Unknown exporter, or one the credential may not run here.';

/**
 * `E/exporters/` (compat "Data exporters"; pretix `EventExportersViewSet`): event access at the route; each
 * exporter is offered by its own permission (`orderlist` `event.orders:read`, `checkinlist` that or
 * `event.orders:checkin`, `voucherlist` `event.vouchers:read`, `quotas` event access), others answer 404.
 */
@ApiTags('exporters')
@Controller('organizers/:organizer/events/:event/exporters')
export class EventExportersController {
  constructor(private readonly exporters: ExporterRunsService) {}

  @Get()
  @RequireEventAccess()
  @ApiOkResponse({ type: ExporterListJson })
  getEventExporters(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
  ): ExporterListJson {
    return this.exporters.list({ organizer, event }, principal);
  }

  @Get(':identifier')
  @RequireEventAccess()
  @ApiOkResponse({ type: ExporterJson })
  @ApiNotFoundResponse({ description: NOT_OFFERED })
  retrieveEventExporter(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('identifier') identifier: string,
  ): ExporterJson {
    return this.exporters.get({ organizer, event }, principal, identifier);
  }

  /** Starts an export: 202 with the absolute `download` URL. */
  @Post(':identifier/run')
  @HttpCode(202)
  @RequireEventAccess()
  @ApiBody(RUN_BODY)
  @ApiAcceptedResponse({ type: ExportStartedJson })
  @ApiBadRequestResponse({ description: 'Invalid form data, naming the fields.' })
  @ApiNotFoundResponse({ description: NOT_OFFERED })
  runEventExporter(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('identifier') identifier: string,
    @Req() req: Request,
    @Body() body: unknown,
  ): Promise<ExportStartedJson> {
    const base = exportersBase(req, `${organizer.slug}/events/${event.slug}`);
    return this.exporters.run({ organizer, event }, principal, identifier, body, base);
  }

  /** The file; 409 while running, 410 failed, 404 unknown, expired or another credential's. */
  @NoStore()
  @Get(':identifier/download/:task/:file')
  @RequireEventAccess()
  @ApiOkResponse(FILE)
  @ApiConflictResponse(PENDING)
  @ApiGoneResponse(FAILED)
  @ApiNotFoundResponse({ description: 'Unknown, expired, or started by another credential.' })
  async retrieveEventExport(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('identifier') identifier: string,
    @Param('task') task: string,
    @Param('file') file: string,
  ): Promise<StreamableFile> {
    return fileAnswer(await this.exporters.download({ organizer, event }, principal, identifier, task, file));
  }
}

/**
 * `O/exporters/` (compat "Data exporters"; pretix `OrganizerExportersViewSet`): organizer access at the route;
 * `orderlist` is offered to a credential with a team holding `event.orders:read` and covers the events it may read,
 * `giftcardlist` needs `organizer.giftcards:read`; others answer 404.
 */
@ApiTags('exporters')
@Controller('organizers/:organizer/exporters')
export class OrganizerExportersController {
  constructor(private readonly exporters: ExporterRunsService) {}

  @Get()
  @RequireOrganizerAccess()
  @ApiOkResponse({ type: ExporterListJson })
  getOrganizerExporters(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
  ): ExporterListJson {
    return this.exporters.list({ organizer, event: null }, principal);
  }

  @Get(':identifier')
  @RequireOrganizerAccess()
  @ApiOkResponse({ type: ExporterJson })
  @ApiNotFoundResponse({ description: NOT_OFFERED })
  retrieveOrganizerExporter(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Param('identifier') identifier: string,
  ): ExporterJson {
    return this.exporters.get({ organizer, event: null }, principal, identifier);
  }

  /** Starts an export: 202 with the absolute `download` URL. */
  @Post(':identifier/run')
  @HttpCode(202)
  @RequireOrganizerAccess()
  @ApiBody(RUN_BODY)
  @ApiAcceptedResponse({ type: ExportStartedJson })
  @ApiBadRequestResponse({ description: 'Invalid form data, naming the fields.' })
  @ApiNotFoundResponse({ description: NOT_OFFERED })
  runOrganizerExporter(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Param('identifier') identifier: string,
    @Req() req: Request,
    @Body() body: unknown,
  ): Promise<ExportStartedJson> {
    const base = exportersBase(req, organizer.slug);
    return this.exporters.run({ organizer, event: null }, principal, identifier, body, base);
  }

  /** The file; 409 while running, 410 failed, 404 unknown, expired or another credential's. */
  @NoStore()
  @Get(':identifier/download/:task/:file')
  @RequireOrganizerAccess()
  @ApiOkResponse(FILE)
  @ApiConflictResponse(PENDING)
  @ApiGoneResponse(FAILED)
  @ApiNotFoundResponse({ description: 'Unknown, expired, or started by another credential.' })
  async retrieveOrganizerExport(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Param('identifier') identifier: string,
    @Param('task') task: string,
    @Param('file') file: string,
  ): Promise<StreamableFile> {
    return fileAnswer(
      await this.exporters.download({ organizer, event: null }, principal, identifier, task, file),
    );
  }
}
