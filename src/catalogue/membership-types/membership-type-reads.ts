import { Injectable, Module } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { MembershipType } from './membership-type.entity';

/**
 * The catalogue's read of membership types for the contexts above it (memberships of customers reference them):
 * needs no port, so it is its own module ({@link MembershipTypeReadsModule}).
 */
@Injectable()
export class MembershipTypeReads {
  /** Whether `id` is a membership type of the organizer; one statement on the caller's `em`. */
  exists(em: EntityManager, organizerId: number, id: number): Promise<boolean> {
    return em.exists(MembershipType, { where: { id, organizerId } });
  }
}

/** Exports {@link MembershipTypeReads}; imports nothing (no port), so any context above the catalogue may use it. */
@Module({ providers: [MembershipTypeReads], exports: [MembershipTypeReads] })
export class MembershipTypeReadsModule {}
