import { Module } from '@nestjs/common';

/** Catalogue: membership types (organizer level). */
@Module({})
export class MembershipTypesModule {}
