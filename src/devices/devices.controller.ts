import { Body, Controller, Get, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentOrganizer, CurrentPrincipal } from '../auth/request-context';
import { IdParam } from '../common/http/id-param';
import { ApiPaginatedResponse } from '../common/http/openapi';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Organizer } from '../organizers/organizer.entity';
import { CreateDeviceDto, UpdateDeviceDto } from './device.dto';
import { DeviceJson } from './device.presenter';
import { DevicesService } from './devices.service';

/**
 * `O/devices/` (pretix `DeviceViewSet`): list, detail by `device_id`, create, PATCH. Reads need
 * `organizer.devices:read`, writes `organizer.devices:write`. There is no DELETE (devices are revoked, never
 * deleted).
 */
@ApiTags('devices')
@Controller('organizers/:organizer/devices')
export class DevicesController {
  constructor(private readonly devices: DevicesService) {}

  @Get()
  @RequirePermission('organizer.devices:read')
  @ApiPaginatedResponse(DeviceJson)
  listDevices(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<DeviceJson>> {
    return this.devices.list(organizer, principal, page);
  }

  /** `id` is the device's `device_id` (its number inside the organizer). */
  @Get(':id')
  @RequirePermission('organizer.devices:read')
  retrieveDevice(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
  ): Promise<DeviceJson> {
    return this.devices.get(organizer, principal, id);
  }

  @Post()
  @RequirePermission('organizer.devices:write')
  createDevice(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateDeviceDto,
  ): Promise<DeviceJson> {
    return this.devices.create(organizer, principal, body);
  }

  @Patch(':id')
  @RequirePermission('organizer.devices:write')
  partialUpdateDevice(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
    @Body() body: UpdateDeviceDto,
  ): Promise<DeviceJson> {
    return this.devices.update(organizer, principal, id, body);
  }
}
