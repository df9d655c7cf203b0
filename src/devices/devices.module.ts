import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { DEVICE_RESOLVER } from '../auth/device-resolver';
import { TenancyModule } from '../organizers/tenancy.module';
import { DeviceCredentialResolver } from './device-credential-resolver';
import { DeviceSelfController } from './device-self.controller';
import { DeviceSelfService } from './device-self.service';
import { Device } from './device.entity';
import { DeviceQueries } from './device.queries';
import { DevicesController } from './devices.controller';
import { DevicesService } from './devices.service';
import { Gate } from './gate.entity';
import { GateQueries } from './gate.queries';
import { GatesController } from './gates.controller';
import { GatesService } from './gates.service';

/**
 * Devices and gates of organizers (pretix `Device`, `Gate`; issue 26): `O/devices/`, `O/gates/` (extension), the
 * device endpoints `device/*`, and auth's `DEVICE_RESOLVER` port (`Authorization: Device <token>`).
 */
@Module({
  imports: [AuditModule, TenancyModule, TypeOrmModule.forFeature([Device, Gate])],
  controllers: [DevicesController, DeviceSelfController, GatesController],
  providers: [
    DeviceQueries,
    GateQueries,
    DevicesService,
    DeviceSelfService,
    GatesService,
    DeviceCredentialResolver,
    { provide: DEVICE_RESOLVER, useExisting: DeviceCredentialResolver },
  ],
  exports: [DEVICE_RESOLVER],
})
export class DevicesModule {}
