import { Module } from '@nestjs/common';
import { InvitesController } from './invites.controller';
import { MembersController } from './members.controller';
import { TeamApiTokensService } from './team-api-tokens.service';
import { TeamInvitesService } from './team-invites.service';
import { TeamMembersService } from './team-members.service';
import { TeamsController } from './teams.controller';
import { TeamsService } from './teams.service';
import { TokensController } from './tokens.controller';
import { MailModule } from '../mail/mail.module';

/** Teams, members, invites and API tokens (spec "Teams"; compat §3.1). */
@Module({
  imports: [MailModule],
  controllers: [TeamsController, MembersController, InvitesController, TokensController],
  providers: [TeamsService, TeamMembersService, TeamInvitesService, TeamApiTokensService],
  exports: [TeamsService],
})
export class TeamsModule {}
