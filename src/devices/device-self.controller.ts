import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { NoTrailingSlash, Public, RequireAuthentication } from '../auth/access.decorators';
import { DeviceOnlyGuard } from '../auth/device-only.guard';
import { Principal } from '../auth/principal';
import { CurrentPrincipal } from '../auth/request-context';
import { DeviceInitializeDto, DeviceUpdateDto } from './device-self.dto';
import { DeviceInfoJson } from './device-self.presenter';
import { DeviceSelfService } from './device-self.service';
import { DeviceSelfJson } from './device.presenter';
import { PresentedDeviceToken } from './presented-token';

/**
 * `/api/v1/device/…` (pretix `api/views/device.py`), without trailing slash: `initialize` is public (the
 * one-time token is the credential); `update`, `info`, `roll` and `revoke` need `Authorization: Device <token>`
 * (any other credential: 401, as pretix, whose device views know no other scheme).
 */
@ApiTags('devices')
@Controller('device')
export class DeviceSelfController {
  constructor(private readonly devices: DeviceSelfService) {}

  @Post('initialize')
  @HttpCode(200)
  @NoTrailingSlash()
  @Public()
  initializeDevice(@Body() body: DeviceInitializeDto): Promise<DeviceSelfJson> {
    return this.devices.initialize(body);
  }

  @Post('update')
  @HttpCode(200)
  @NoTrailingSlash()
  @RequireAuthentication()
  @UseGuards(DeviceOnlyGuard)
  @ApiSecurity('device')
  updateDeviceInfo(
    @CurrentPrincipal() principal: Principal,
    @PresentedDeviceToken() token: string,
    @Body() body: DeviceUpdateDto,
  ): Promise<DeviceSelfJson> {
    return this.devices.update(principal, token, body);
  }

  @Get('info')
  @NoTrailingSlash()
  @RequireAuthentication()
  @UseGuards(DeviceOnlyGuard)
  @ApiSecurity('device')
  retrieveDeviceInfo(
    @CurrentPrincipal() principal: Principal,
    @PresentedDeviceToken() token: string,
  ): Promise<DeviceInfoJson> {
    return this.devices.info(principal, token);
  }

  @Post('roll')
  @HttpCode(200)
  @NoTrailingSlash()
  @RequireAuthentication()
  @UseGuards(DeviceOnlyGuard)
  @ApiSecurity('device')
  rollDeviceToken(@CurrentPrincipal() principal: Principal): Promise<DeviceSelfJson> {
    return this.devices.roll(principal);
  }

  @Post('revoke')
  @HttpCode(200)
  @NoTrailingSlash()
  @RequireAuthentication()
  @UseGuards(DeviceOnlyGuard)
  @ApiSecurity('device')
  revokeDevice(
    @CurrentPrincipal() principal: Principal,
    @PresentedDeviceToken() token: string,
  ): Promise<DeviceSelfJson> {
    return this.devices.revoke(principal, token);
  }
}
