import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WaitingListEntry } from './waiting-list-entry.entity';
import { WaitingListSettings } from './waiting-list-settings.entity';
import { WaitingListSettingsService } from './waiting-list-settings.service';
import { WaitingListQueries } from './waiting-list.queries';

/**
 * The waiting list settings of events (`waiting_list_*` keys of `E/settings/`), with the waiting list's queries;
 * needs no port, so the settings endpoint's owner can import it.
 */
@Module({
  imports: [TypeOrmModule.forFeature([WaitingListEntry, WaitingListSettings])],
  providers: [WaitingListQueries, WaitingListSettingsService],
  exports: [WaitingListQueries, WaitingListSettingsService],
})
export class WaitingListSettingsModule {}
