import { Module } from '@nestjs/common';
import { TeamsService } from './teams.service';

/** Teams, members, invites and API tokens. */
@Module({
  providers: [TeamsService],
  exports: [TeamsService],
})
export class TeamsModule {}
