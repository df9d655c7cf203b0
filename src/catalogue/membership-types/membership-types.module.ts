import { Module } from '@nestjs/common';
import { MembershipTypesController } from './membership-types.controller';
import { MembershipTypesService } from './membership-types.service';

/**
 * Catalogue: membership types (organizer level, `O/membershiptypes/`). Customers' memberships plug into deletion
 * through the optional `MEMBERSHIP_TYPE_USAGE` port (membership-types.service.ts).
 */
@Module({
  controllers: [MembershipTypesController],
  providers: [MembershipTypesService],
})
export class MembershipTypesModule {}
