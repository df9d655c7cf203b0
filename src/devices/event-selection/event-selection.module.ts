import { Module } from '@nestjs/common';
import { CheckinModule } from '../../checkin/checkin.module';
import { TenancyModule } from '../../organizers/tenancy.module';
import { DeviceEventSelectionController } from './event-selection.controller';
import { DeviceEventSelectionService } from './event-selection.service';

/**
 * `GET /api/v1/device/eventselection` (pretix `EventSelectionView`): reads dates through the organizers'
 * `EventSelectionQueries` and lists through `CheckinListsService`; the device comes from the Principal.
 */
@Module({
  imports: [TenancyModule, CheckinModule],
  controllers: [DeviceEventSelectionController],
  providers: [DeviceEventSelectionService],
})
export class DeviceEventSelectionModule {}
