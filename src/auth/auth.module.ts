import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Event } from '../organizers/event.entity';
import { Organizer } from '../organizers/organizer.entity';
import { CredentialsService } from './credentials.service';
import { CredentialGuard, PermissionGuard } from './guards';
import { MeController } from './me.controller';
import { BearerTokenStrategy, TeamTokenStrategy } from './strategies';
import { UsersService } from './users.service';

/** Credentials, the global guards (authentication, then default-deny permissions) and `/me`. */
@Module({
  imports: [PassportModule, TypeOrmModule.forFeature([Organizer, Event])],
  controllers: [MeController],
  providers: [
    CredentialsService,
    UsersService,
    TeamTokenStrategy,
    BearerTokenStrategy,
    { provide: APP_GUARD, useClass: CredentialGuard },
    { provide: APP_GUARD, useClass: PermissionGuard },
  ],
  exports: [CredentialsService, UsersService],
})
export class AuthModule {}
