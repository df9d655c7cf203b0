import { Module } from '@nestjs/common';
import { DEVICE_RESOLVER } from '../auth/device-resolver';
import { TenancyModule } from '../organizers/tenancy.module';
import { DeviceCredentialResolver } from './device-credential-resolver';
import { DeviceQueries } from './device.queries';

/**
 * The devices context without routes: auth's `DEVICE_RESOLVER` port (device tokens, and devices by id for
 * background work they started), for the API and the worker.
 */
@Module({
  imports: [TenancyModule],
  providers: [
    DeviceQueries,
    DeviceCredentialResolver,
    { provide: DEVICE_RESOLVER, useExisting: DeviceCredentialResolver },
  ],
  exports: [DEVICE_RESOLVER, DeviceQueries],
})
export class DevicesCoreModule {}
