import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { User } from '../auth/user.entity';
import { AuditModule } from '../audit/audit.module';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { MailModule } from '../mail/mail.module';
import { OrganizersModule } from '../organizers/organizers.module';
import { TeamsModule } from '../teams/teams.module';
import { UsersService } from '../auth/users.service';
import { BootstrapCommand, CreateUserCommand } from './commands';

/** The admin CLI (`npm run cli -- <command>`): administration that has no API. */
@Module({
  imports: [
    ConfigModule.forRoot(),
    DatabaseModule,
    TypeOrmModule.forFeature([User]),
    AuditModule,
    MailModule,
    OrganizersModule,
    TeamsModule,
  ],
  providers: [UsersService, BootstrapCommand, CreateUserCommand],
})
export class CliModule {}
