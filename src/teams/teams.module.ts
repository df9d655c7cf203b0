import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CREDENTIAL_RESOLVER } from '../auth/credential-resolver';
import { TenancyModule } from '../organizers/tenancy.module';
import { CreatorEventAccess } from './creator-event-access';
import { InvitesController } from './invites.controller';
import { MembersController } from './members.controller';
import { TeamApiToken } from './team-api-token.entity';
import { TeamApiTokenQueries } from './team-api-token.queries';
import { TeamApiTokensService } from './team-api-tokens.service';
import { TeamCredentialResolver } from './team-credential-resolver';
import { TeamInvite } from './team-invite.entity';
import { TeamInviteQueries } from './team-invite.queries';
import { TeamInvitesService } from './team-invites.service';
import { TeamMembersService } from './team-members.service';
import { Team } from './team.entity';
import { TeamQueries } from './team.queries';
import { TeamsController } from './teams.controller';
import { TeamsService } from './teams.service';
import { TokensController } from './tokens.controller';
import { MailModule } from '../mail/mail.module';
import { UsersModule } from '../auth/users.module';
import { AuditModule } from '../audit/audit.module';

/**
 * Teams, members, invites and API tokens (spec "Teams"; compat §3.1); provides auth's `CREDENTIAL_RESOLVER`
 * port (tokens and teams live here).
 */
@Module({
  imports: [
    AuditModule,
    TypeOrmModule.forFeature([Team, TeamApiToken, TeamInvite]),
    TenancyModule,
    MailModule,
    UsersModule,
  ],
  controllers: [TeamsController, MembersController, InvitesController, TokensController],
  providers: [
    TeamQueries,
    TeamApiTokenQueries,
    TeamInviteQueries,
    TeamsService,
    TeamMembersService,
    TeamInvitesService,
    TeamApiTokensService,
    TeamCredentialResolver,
    CreatorEventAccess,
    { provide: CREDENTIAL_RESOLVER, useExisting: TeamCredentialResolver },
  ],
  exports: [TeamsService, CREDENTIAL_RESOLVER],
})
export class TeamsModule {}
