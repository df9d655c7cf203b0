import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { User } from './user.entity';
import { UserQueries } from './user.queries';
import { UsersService } from './users.service';

/** User accounts (the `user_account` table) for the API, the CLI and OAuth. */
@Module({
  imports: [TypeOrmModule.forFeature([User])],
  providers: [UsersService, UserQueries],
  exports: [UsersService, UserQueries],
})
export class UsersModule {}
