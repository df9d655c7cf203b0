import { DynamicModule, Module } from '@nestjs/common';
import { TenancyModule } from '../../organizers/tenancy.module';
import { DeviceEventSelectionController } from './event-selection.controller';
import { DeviceEventSelectionService } from './event-selection.service';

/**
 * `GET /api/v1/device/eventselection` (pretix `EventSelectionView`): reads dates through the organizers'
 * `EventSelectionQueries` and lists through `CheckinListsService`; the device comes from the Principal.
 */
@Module({})
export class DeviceEventSelectionModule {
  /** @param checkin the application's one check-in module (`CheckinModule.register(…)`), which exports the lists */
  static register(checkin: DynamicModule): DynamicModule {
    return {
      module: DeviceEventSelectionModule,
      imports: [TenancyModule, checkin],
      controllers: [DeviceEventSelectionController],
      providers: [DeviceEventSelectionService],
    };
  }
}
