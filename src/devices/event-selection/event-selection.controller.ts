import { Controller, Get, UseGuards } from '@nestjs/common';
import {
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import { NoTrailingSlash, RequireAuthentication } from '../../auth/access.decorators';
import { DeviceOnlyGuard } from '../../auth/device-only.guard';
import { Principal } from '../../auth/principal';
import { CurrentPrincipal } from '../../auth/request-context';
import { ListFilters } from '../../common/http/list-filters';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { EventSelectionJson } from './event-selection.presenter';
import { DeviceEventSelectionService } from './event-selection.service';

/** `GET /api/v1/device/eventselection` (pretix `device.eventselection`): device credentials only. */
@ApiTags('devices')
@Controller('device')
export class DeviceEventSelectionController {
  constructor(private readonly selection: DeviceEventSelectionService) {}

  @Get('eventselection')
  @NoTrailingSlash()
  @RequireAuthentication()
  @UseGuards(DeviceOnlyGuard)
  @ApiSecurity('device')
  @ListFilters({
    filters: {
      current_event: { schema: { type: 'string' }, description: 'Slug of the event the device shows.' },
      current_subevent: {
        schema: { type: 'integer', format: 'int32' },
        description: 'Id of the date (sub-event) the device shows.',
      },
      current_checkinlist: {
        schema: { type: 'integer', format: 'int32' },
        description: 'Id of the check-in list the device uses.',
      },
    },
  })
  @ApiOkResponse({ type: EventSelectionJson, description: 'Switch to this event, date and check-in list.' })
  @ApiResponse({ status: 304, description: 'Stay with the current event, date and list (no body).' })
  @ApiNotFoundResponse({ description: 'The device reaches no live event or date.' })
  @ApiOperation({ summary: 'The event, date and check-in list a device should use now' })
  retrieveDeviceEventSelection(
    @CurrentPrincipal() principal: Principal,
    @Filters() filters: QueryFilters,
  ): Promise<EventSelectionJson> {
    return this.selection.select(principal, filters);
  }
}
